import type { CaptureMode } from "@/server/db/generated/client";

/**
 * The capture modes the simulator can run its Postgres-table source under (`--mode`), one entry
 * each: a mode is simulated by creating the source with it. `all` runs every entry in turn.
 * cdc puts the customer's table on a second server with wal_level = logical (environment.ts) and
 * lets the worker's consumer commit the changes instead of passes (change-stream.ts).
 */
export const SIMULATED_MODES = {
  compare: { captureMode: "compare", logicalCustomer: false },
  xmin: { captureMode: "xmin", logicalCustomer: false },
  cdc: { captureMode: "cdc", logicalCustomer: true },
} as const satisfies Record<string, { captureMode: CaptureMode; logicalCustomer: boolean }>;

export type SimulatedMode = keyof typeof SIMULATED_MODES;

/** The modes `--mode` names (a mode, or `all`), or why the name is refused. */
export function parseModeOption(value: string): { ok: true; modes: SimulatedMode[] } | { ok: false; reason: string } {
  const known = Object.keys(SIMULATED_MODES) as SimulatedMode[];
  if (value === "all") return { ok: true, modes: known };
  if ((known as string[]).includes(value)) return { ok: true, modes: [value as SimulatedMode] };
  return { ok: false, reason: `--mode must be one of ${[...known, "all"].join(", ")}` };
}
