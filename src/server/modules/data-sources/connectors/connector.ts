import type { Writable } from "node:stream";
import type { Result } from "@/server/modules/outbound/result";
import type { TargetPolicy } from "@/server/modules/outbound/target-policy";

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

/** A row's key and a hash of its mirrored values computed where the row lives (see KeyedRead). */
export interface SourceKey {
  externalId: string;
  /** md5 of the row's values as `jsonb` text: equal to md5(data::text) of the stored row when nothing changed. */
  hash: string;
  orderValue: number | null;
}

/**
 * A second way to read the same snapshot, for sources that can hash rows on their side: keys
 * and hashes first (a few dozen bytes a row), then full rows only for the keys that need them.
 */
export interface KeyedRead {
  /** Every key with its hash, in read order, in bounded batches. */
  keys(): AsyncIterable<Result<SourceKey[]>>;
  /** The full rows of these keys (at most one batch), in any order. */
  rows(keys: string[]): Promise<Result<SourceRecord[]>>;
}

/** A consistent read of the whole source, delivered in bounded batches. */
export interface Snapshot {
  /** The mirrored column set, in order. */
  columns: string[];
  /** True when rows carry orderValue (an order column is configured). */
  ordered: boolean;
  /** Batches in read order. A failure ends the read; nothing after it is yielded. */
  batches(): AsyncIterable<Result<SourceRecord[]>>;
  /** Present when the source can hash rows on its side; use it instead of batches(), not with it. */
  keyed?: KeyedRead;
  /** Present on sources whose rows carry the id of the transaction that wrote them (Postgres tables). */
  xmin?: XminRead;
  /** Present on Postgres tables: whether the server lets this source stream changes (null) or why not. */
  cdc?: { support(): Promise<string | null> };
  /** What the read cost the customer so far: statements (or HTTP requests) sent, rows received. */
  cost?: () => CustomerCost;
  /** Releases the connection; safe to call more than once. */
  close(): Promise<void>;
}

export interface CustomerCost {
  statements: number;
  rowsRead: number;
}

/**
 * Reading only what changed since an earlier snapshot, by the transaction ids rows carry (D280).
 * Transaction ids are 64-bit, epoch-adjusted, as decimal strings.
 */
export interface XminRead {
  /** Why this relation cannot be read by xmin (a view, a foreign table...), or null. */
  unsupported: string | null;
  /** This snapshot's xmin: every transaction below it had ended when the snapshot was taken. */
  horizon: string;
  /** This snapshot's xmax: the next transaction id to be assigned. */
  nextXid: string;
  /** The relation and the resolved column selection (names and types); a change means a full compare. */
  signature: string;
  /** Rows written by transactions at or after `since` (a horizon an earlier snapshot recorded). */
  changedRows(since: string): AsyncIterable<Result<SourceRecord[]>>;
  /** How many rows (with a key) the relation holds in this snapshot. */
  rowCount(): Promise<Result<number>>;
  /** Every key (COPY text format, one per line) streamed into `into`; resolves when the copy ended. */
  copyKeys(into: Writable): Promise<Result<void>>;
}

export interface FetchOptions {
  /** Rows per batch: what bounds the memory of a pass. */
  batchSize: number;
  /** Per network operation (connect, one query, one HTTP request). */
  timeoutMs: number;
  /**
   * A snapshot exported by the customer's server (a replication slot's EXPORT_SNAPSHOT): the read
   * sees exactly the data as of the slot's consistent point (capture/cdc/full-compare.ts).
   */
  exportedSnapshot?: string;
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
