import type { CaptureMode, DataSourceKind } from "@/server/db/generated/client";
import type { Snapshot } from "../connectors/connector";

/** Every capture mode, best first: the order a source's default is chosen in (D282). */
const CAPTURE_MODES_BEST_FIRST = ["cdc", "modified_since", "xmin", "compare"] as const satisfies readonly CaptureMode[];

/** Whether a source's target supports a mode, and if not, why (shown by the connection test). */
export interface ModeSupport {
  mode: CaptureMode;
  supported: boolean;
  /** Why not, in words an owner can act on; null when supported. */
  reason: string | null;
}

export interface CaptureProbeInput {
  kind: Exclude<DataSourceKind, "csv">;
  /** An open snapshot of the source: the probes read what it reports, nothing more. */
  snapshot: Snapshot;
  /** A CRM object's answer to the describe call: why modified-since reads are not possible, or null (crm-capture-plan.ts). */
  crm?: { unsupported: string | null };
}

/** null: supported; otherwise why not. One entry per mode: a new mode adds its probe here. */
type ModeProbe = (input: CaptureProbeInput) => Promise<string | null>;

const NOT_A_TABLE = "only a Postgres table source can use it";

const PROBES: Record<CaptureMode, ModeProbe> = {
  compare: async () => null,
  xmin: async ({ kind, snapshot }) => {
    if (kind !== "postgres_table") return NOT_A_TABLE;
    if (!snapshot.xmin) return "the connector cannot read row transaction ids";
    return snapshot.xmin.unsupported;
  },
  // wal_level, the REPLICATION grant, a free slot, a publication and the replica identity (cdc/cdc-support.ts).
  cdc: async ({ kind, snapshot }) => {
    if (kind !== "postgres_table") return NOT_A_TABLE;
    if (!snapshot.cdc) return "the connector cannot stream changes";
    return snapshot.cdc.support();
  },
  modified_since: async ({ kind, crm }) => {
    if (kind !== "crm_object") return "only a CRM object source has a last-modified stamp";
    return crm ? crm.unsupported : "the CRM object was not described";
  },
};

/** What the connection test reports: every mode, best first, with why a mode is not available. */
export async function captureSupport(input: CaptureProbeInput): Promise<ModeSupport[]> {
  const support: ModeSupport[] = [];
  for (const mode of CAPTURE_MODES_BEST_FIRST) {
    const reason = await PROBES[mode](input);
    support.push({ mode, supported: reason === null, reason });
  }
  return support;
}

/** The best supported mode; compare is always supported. */
export function bestMode(support: ModeSupport[]): CaptureMode {
  for (const mode of CAPTURE_MODES_BEST_FIRST) if (support.find((entry) => entry.mode === mode)?.supported) return mode;
  return "compare";
}

/** Fallback reasons of a pass recorded on its run (sync_runs.fallback_reason), in words (D283). */
const FALLBACK_REASONS = {
  first_pass: "first pass: every row is new",
  requested: "a full re-read was requested",
  unsupported_relation: "the source relation cannot be read incrementally (a view, or not a plain table)",
  no_state: "no horizon recorded yet (new mode, or the connection changed)",
  selection_changed: "the table or the column selection changed since the last pass",
  horizon_ahead: "the recorded horizon is ahead of the database (restored from a backup, or another server)",
  horizon_too_old: "the recorded horizon is older than the wraparound-safe age",
  schedule: "the scheduled full compare (daily safety net)",
  mode_unavailable: "the chosen capture mode is not available for this source",
  cdc_pass: "a streamed (CDC) source's pass compares in full; the stream carries the changes between passes",
} as const;
export type FallbackReason = keyof typeof FALLBACK_REASONS;

export function describeFallback(reason: string | null): string | null {
  if (reason === null) return null;
  return (FALLBACK_REASONS as Record<string, string>)[reason] ?? reason;
}
