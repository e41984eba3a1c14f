import type { Result } from "../result";
import type { TargetPolicy } from "./targets/target-policy";

/** One row as a connector read it. */
export interface SourceRecord {
  /** The natural key (key column, CRM record Id), unique within the source. */
  externalId: string;
  /** The mirrored column values, JSON-ready. */
  data: Record<string, unknown>;
  /**
   * The order column's value, when the snapshot is `ordered` (null when that value is empty).
   * Without an order column the sync orders rows by first appearance in read order.
   */
  orderValue: number | null;
}

/** A consistent read of the whole source, delivered in bounded batches. */
export interface Snapshot {
  /** The mirrored column set, in order. */
  columns: string[];
  /** True when rows carry orderValue (an order column is configured). */
  ordered: boolean;
  /** Batches in read order. A failure ends the read; nothing after it is yielded. */
  batches(): AsyncIterable<Result<SourceRecord[]>>;
  /** Releases the connection; safe to call more than once. */
  close(): Promise<void>;
}

export interface FetchOptions {
  /** Rows per batch: what bounds the memory of a pass. */
  batchSize: number;
  /** Per network operation (connect, one query, one HTTP request). */
  timeoutMs: number;
}

/**
 * The port every managed source kind implements. Reads are side-effect free on the customer's
 * side; expected failures come back as values with a readable, secret-free reason.
 */
export interface Connector {
  fetchSnapshot(options: FetchOptions): Promise<Result<Snapshot>>;
}

/** Where connectors may go: the operator's policy, and the service's own database to avoid. */
export interface ConnectorTargets {
  policy: TargetPolicy;
  /** Read at connect time: entry points register it once their database is up. */
  serviceDatabaseUrl: () => string | undefined;
}
