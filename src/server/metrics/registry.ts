import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type MetricObjectWithValues, type MetricValue } from "prom-client";

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<"method" | "route" | "status">;
  httpDuration: Histogram<"method" | "route" | "status">;
  rateLimited: Counter<"route">;
  syncPasses: Counter<"outcome">;
  syncDuration: Histogram<"outcome">;
  dataSources: Gauge<"status">;
  staleDataSources: Gauge;
  requestLogDropped: Counter<"reason">;
  workerUp: Gauge;
  workerRestarts: Counter;
  /**
   * Series another process counts for this one: `npm start`'s worker process and its pass
   * counters (D311). Added to the scrape, summed with this process's own.
   */
  relayed?: () => Promise<MetricObjectWithValues<MetricValue<string>>[]>;
  cdcSlotLagBytes: Gauge<"source_id">;
  /** Rows pages by where they were read, with GROUNDWORK_READ_DATABASE_URL set (D404). */
  rowsReads: Counter<"target">;
  readReplicaLag: Gauge;
  cdcLastApplySeconds: Gauge<"source_id">;
  backupLastSuccess: Gauge;
}

const GLOBAL_KEY = Symbol.for("groundwork.metrics");

/**
 * The process's metrics. NOTE: kept on globalThis, not in a module variable: `npm start` runs the
 * sync worker and the /api/v1 pipeline through Next's bundles as well as through tsx, i.e. as
 * separate copies of this module in one process, and every copy must count into one registry.
 */
export function metrics(): Metrics {
  const holder = globalThis as { [GLOBAL_KEY]?: Metrics };
  holder[GLOBAL_KEY] ??= createMetrics();
  return holder[GLOBAL_KEY];
}

function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "groundwork_" });
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: "groundwork_http_requests_total",
      help: "Requests answered by /api/v1, by method, route template and status.",
      labelNames: ["method", "route", "status"],
      registers,
    }),
    httpDuration: new Histogram({
      name: "groundwork_http_request_duration_seconds",
      help: "Time to answer /api/v1 requests, by method, route template and status.",
      labelNames: ["method", "route", "status"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    rateLimited: new Counter({
      name: "groundwork_rate_limited_requests_total",
      help: "Requests refused because the API key's rate budget was spent (429), by route template.",
      labelNames: ["route"],
      registers,
    }),
    syncPasses: new Counter({
      name: "groundwork_sync_passes_total",
      help: "Sync passes run by this process's workers (under npm start, by its worker process), by outcome (ok, needs_attention, error).",
      labelNames: ["outcome"],
      registers,
    }),
    syncDuration: new Histogram({
      name: "groundwork_sync_pass_duration_seconds",
      help: "Duration of sync passes run by this process's workers (under npm start, by its worker process), by outcome.",
      labelNames: ["outcome"],
      buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 1800],
      registers,
    }),
    dataSources: new Gauge({
      name: "groundwork_data_sources",
      help: "Data sources by status (ok, needs_attention, error, never_synced), read from the database at scrape time.",
      labelNames: ["status"],
      registers,
    }),
    staleDataSources: new Gauge({
      name: "groundwork_data_sources_stale",
      help: "Scheduled data sources with no completed pass for more than 3 of their intervals, read at scrape time.",
      registers,
    }),
    requestLogDropped: new Counter({
      name: "groundwork_request_log_dropped_total",
      help: "Request log entries dropped instead of written, by reason (overflow: buffer full; write_failed; closed).",
      labelNames: ["reason"],
      registers,
    }),
    workerUp: new Gauge({
      name: "groundwork_worker_process_up",
      help: "1 while npm start's sync worker process is running and taking jobs, 0 while it starts, restarts or stops (D311).",
      registers,
    }),
    workerRestarts: new Counter({
      name: "groundwork_worker_process_restarts_total",
      help: "Restarts of npm start's sync worker process after it ended unexpectedly (D311).",
      registers,
    }),
    rowsReads: new Counter({
      name: "groundwork_rows_reads_total",
      help: "Rows pages by the database that served them (primary or replica), counted when GROUNDWORK_READ_DATABASE_URL is set.",
      labelNames: ["target"],
      registers,
    }),
    readReplicaLag: new Gauge({
      name: "groundwork_read_replica_lag_seconds",
      help: "How far the read replica's replay is behind the primary, as last polled (every 200 ms); -1 while it does not answer.",
      registers,
    }),
    cdcSlotLagBytes: new Gauge({
      name: "groundwork_cdc_slot_lag_bytes",
      help: "CDC sources: WAL the customer's replication slot still holds for us (as last measured by the consumer), read at scrape time.",
      labelNames: ["source_id"],
      registers,
    }),
    cdcLastApplySeconds: new Gauge({
      name: "groundwork_cdc_seconds_since_last_apply",
      help: "CDC sources: seconds since the consumer last applied a customer commit, read at scrape time.",
      labelNames: ["source_id"],
      registers,
    }),
    backupLastSuccess: new Gauge({
      name: "groundwork_backup_last_success_timestamp_seconds",
      help: "Unix time of the last backup that succeeded (scheduled or `backup create`), from the audit log at scrape time; 0 when none. Only when GROUNDWORK_BACKUP_DIR is set (D387).",
      registers,
    }),
  };
}
