import { z } from "zod";
import type { CaptureMode } from "@/server/db/generated/client";
import { AppError } from "@/server/errors/app-error";
import type { ConnectorDeps } from "../connectors/connector-for-source";
import { testConnection, type ConnectionSettings } from "../test-connection";

export const captureModeSchema = z.enum(["compare", "xmin", "cdc", "modified_since"]);

/**
 * A mode chosen by hand must be one the connection test allows (D282): the target is tested
 * with the settings about to be saved, and a refusal says why the mode is not available.
 * compare needs nothing from the target, so it is never refused.
 */
export async function confirmCaptureMode(deps: ConnectorDeps, settings: ConnectionSettings, mode: CaptureMode): Promise<void> {
  if (mode === "compare") return;
  const check = await testConnection(deps, settings);
  if (!check.ok) {
    throw new AppError("bad_request", `Connection test failed, so capture mode ${mode} cannot be confirmed; nothing was saved: ${check.reason}`, {
      details: { field: "captureMode" },
    });
  }
  const support = check.captureModes.find((entry) => entry.mode === mode);
  if (!support?.supported) {
    throw new AppError("bad_request", `Capture mode ${mode} is not available for this source: ${support?.reason ?? "unknown mode"}`, {
      details: { field: "captureMode" },
    });
  }
}
