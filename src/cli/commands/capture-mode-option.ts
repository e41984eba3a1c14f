import { captureModeSchema } from "@/server/modules/data-sources/capture/confirm-capture-mode";
import { CliUsageError, type CliArgs } from "../command";

type CaptureModeName = (typeof captureModeSchema.options)[number];

/** --capture-mode; left out (null): on create, the best mode the target supports (D282); on edit, unchanged. */
export function optionalCaptureMode(args: CliArgs): CaptureModeName | null {
  const value = args.values["capture-mode"];
  if (typeof value !== "string" || value.trim() === "") return null;
  const parsed = captureModeSchema.safeParse(value.trim());
  if (!parsed.success) throw new CliUsageError(`--capture-mode must be one of ${captureModeSchema.options.join(", ")}`);
  return parsed.data;
}
