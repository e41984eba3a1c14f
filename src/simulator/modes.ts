import type { CaptureMode } from "@/server/db/generated/client";

/**
 * The capture modes the simulator can run its Postgres-table source under (`--mode`), one entry
 * each: a mode is simulated by creating the source with it. `all` runs every entry in turn.
 * NOTE: cdc joins this table when logical replication capture lands (it then needs a customer
 * server with wal_level=logical, set up by its entry).
 */
export const SIMULATED_MODES = {
  compare: { captureMode: "compare" },
  xmin: { captureMode: "xmin" },
} as const satisfies Record<string, { captureMode: CaptureMode }>;

export type SimulatedMode = keyof typeof SIMULATED_MODES;

/** The modes `--mode` names (a mode, or `all`), or why the name is refused. */
export function parseModeOption(value: string): { ok: true; modes: SimulatedMode[] } | { ok: false; reason: string } {
  const known = Object.keys(SIMULATED_MODES) as SimulatedMode[];
  if (value === "all") return { ok: true, modes: known };
  if ((known as string[]).includes(value)) return { ok: true, modes: [value as SimulatedMode] };
  const pending = value === "cdc" ? " (cdc is not wired into the simulator yet)" : "";
  return { ok: false, reason: `--mode must be one of ${[...known, "all"].join(", ")}${pending}` };
}
