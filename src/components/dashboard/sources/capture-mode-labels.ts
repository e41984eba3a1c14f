/** Capture modes in words, for the forms (client) and the source page (server). */
export const CAPTURE_MODE_LABELS: Record<string, string> = {
  compare: "Full compare",
  xmin: "Changed rows (xmin)",
  cdc: "Logical replication (CDC)",
  modified_since: "Modified since",
};

export const CAPTURE_MODE_HINTS: Record<string, string> = {
  compare: "Every pass reads every key and a hash of each row.",
  xmin: "Reads only rows written since the last pass; deletions by a row count, and the keys when rows went; a full compare daily.",
  cdc: "Consumes the table's change stream from a replication slot.",
  modified_since: "Reads records by their last-modified stamp, deletions from the deleted-records query.",
};

export function captureModeLabel(mode: string | null): string {
  return mode === null ? "Automatic (the best mode the target supports, taken up at a full compare)" : (CAPTURE_MODE_LABELS[mode] ?? mode);
}
