import type { DataSource } from "@/server/db/generated/client";
import { columnsChanged } from "../../column-set";
import type { SourceRecord } from "../../connectors/connector";
import { connectorForSource, type ConnectorDeps } from "../../connectors/connector-for-source";
import { failure, success, type Result } from "@/server/modules/outbound/result";

export interface ChangedRows {
  /** The current rows of the touched keys that still exist. */
  present: SourceRecord[];
  /** Touched keys the table no longer holds: deletions (or keys moved away). */
  absent: string[];
  ordered: boolean;
}

/** Why the stream cannot go on by itself and a full compare must run (consumer → full-compare.ts). */
export class NeedsFullCompare {
  constructor(readonly reason: string) {}
}

/**
 * NOTE (D290): the stream says *which* keys changed and in what commit order; the values are
 * read from the table with the connector's own SQL (to_jsonb, bigint as text…), so a row applied
 * from the stream is byte for byte what a full compare would store — a later compare finds it
 * unchanged and keeps its updated_at. Reading the current value (not the one in the WAL record)
 * never moves a row back in time: a later change of the same key comes through the stream too,
 * and reads the same or a newer value. It also sidesteps TOAST values pgoutput omits.
 */
export async function readChangedRows(
  source: DataSource,
  deps: ConnectorDeps,
  keys: readonly string[],
  options: { batchSize: number; timeoutMs: number; onStatement?: (rows: number) => void },
): Promise<Result<ChangedRows> | NeedsFullCompare> {
  const connector = connectorForSource(source, deps);
  if (!connector.ok) return connector;
  const opened = await connector.value.fetchSnapshot({ batchSize: options.batchSize, timeoutMs: options.timeoutMs });
  if (!opened.ok) return opened;
  const snapshot = opened.value;
  try {
    if (source.columns.length > 0 && columnsChanged(source.columns, snapshot.columns)) {
      return new NeedsFullCompare("the table's column set changed");
    }
    if (!snapshot.keyed) return failure("the connector cannot read rows by key");
    const present: SourceRecord[] = [];
    for (let i = 0; i < keys.length; i += options.batchSize) {
      const read = await snapshot.keyed.rows(keys.slice(i, i + options.batchSize));
      if (!read.ok) return read;
      options.onStatement?.(read.value.length);
      present.push(...read.value);
    }
    const found = new Set(present.map((record) => record.externalId));
    return success({ present, absent: keys.filter((key) => !found.has(key)), ordered: snapshot.ordered });
  } finally {
    await snapshot.close();
  }
}
