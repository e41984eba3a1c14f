import { z } from "zod";

/**
 * The only reader of process.env. Parsed once, on first use, so a misconfiguration fails
 * fast with a readable list of what is wrong instead of surfacing later as a 500.
 */
const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === "" ? undefined : value));

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  /**
   * Where what needs a session connects (D400): migrations, graphile-worker, session advisory
   * locks, the CDC consumer. Unset: DATABASE_URL. Must reach PostgreSQL itself, never a pooler.
   */
  DIRECT_DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  /**
   * `transaction`: DATABASE_URL is a transaction-mode pooler (PgBouncer), so the API keeps no
   * session state. Unset: detected at start (D400).
   */
  DATABASE_POOL_MODE: z.enum(["session", "transaction"]).optional(),
  /** A streaming replica the rows endpoint reads from when it is fresh enough (D404). Unset: the primary. */
  GROUNDWORK_READ_DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL")
      .optional(),
  ),
  /** A first page or a delta reads on the replica only while its lag is under this, in ms (D404). */
  GROUNDWORK_READ_MAX_LAG_MS: z.coerce.number().int().min(0).max(3_600_000).default(1_000),
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  GROUNDWORK_DATA_DIR: optionalString,
  GROUNDWORK_COMMIT: optionalString,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  PUBLIC_URL: optionalString.pipe(z.url().optional()),
  REDIS_URL: optionalString.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, "must be a redis:// URL")
      .optional(),
  ),
  GROUNDWORK_ENCRYPTION_KEY: optionalString,
  /** Signs pagination cursors; at least 32 characters. Unset: `<data dir>/cursor.key` (D47). */
  GROUNDWORK_CURSOR_SECRET: optionalString.pipe(z.string().min(32, "must be at least 32 characters").optional()),
  /** Connections in the API's Prisma pool (D45). */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(500).default(10),
  /** How long a migration waits for a lock before it gives up its place and retries, in ms (D391). */
  GROUNDWORK_MIGRATION_LOCK_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
  /** Lets a production start with an external DATABASE_URL generate its secrets into the data dir (D395). */
  GROUNDWORK_ALLOW_GENERATED_SECRETS: z.enum(["on", "off"]).default("off"),
  /** Upper bound on any one statement of an API request, in ms (D45). */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  GROUNDWORK_WORKER: z.enum(["on", "off"]).default("on"),
  /** Parse every /api/v1 answer by its output schema in production too (D262; always on outside it). */
  GROUNDWORK_CHECK_OUTPUT: z.enum(["on", "off"]).default("off"),
  GROUNDWORK_SEED: z.enum(["on", "off"]).default("on"),
  /** Lets connectors reach loopback, private and link-local addresses (self-hosted setups, tests). */
  GROUNDWORK_ALLOW_PRIVATE_TARGETS: z.enum(["on", "off"]).default("off"),
  /**
   * The scheduler's tick, in seconds, which is also the shortest sync interval a source may
   * have (default 60). Lower only for tests and demos that need a schedule to turn over fast.
   */
  GROUNDWORK_SYNC_TICK_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** The operator's SMTP relay for alert emails: smtp://user:pass@relay:587 or smtps://… (D214). */
  GROUNDWORK_SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
      .optional(),
  ),
  /** The From address of alert emails (default groundwork@<PUBLIC_URL's host>). */
  GROUNDWORK_SMTP_FROM: optionalString,
  /** Signs dashboard sessions; `npm start` fills it from `<data dir>/nextauth.secret` when unset. */
  NEXTAUTH_SECRET: optionalString,
  /** The dashboard's public origin (next-auth builds its redirects from it). */
  NEXTAUTH_URL: optionalString.pipe(z.url().optional()),
  /**
   * Proxies whose X-Forwarded-For is believed (D174): comma-separated addresses or CIDR ranges.
   * Unset: the socket's peer is the client, and X-Forwarded-For is ignored.
   */
  GROUNDWORK_TRUSTED_PROXIES: optionalString.pipe(
    z
      .string()
      .regex(/^[0-9a-fA-F:.\/, ]+$/, "must be comma-separated IP addresses or CIDR ranges")
      .optional(),
  ),
  /** How long a stopping server lets in-flight requests finish, in ms (D178). */
  GROUNDWORK_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(20_000),
  /** `npm run worker` answers GET /health on this port when set (200 running, 503 stopping). */
  GROUNDWORK_WORKER_HEALTH_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  /** Bearer token of GET /metrics; unset turns the endpoint off (404). */
  GROUNDWORK_METRICS_TOKEN: optionalString.pipe(z.string().min(16, "must be at least 16 characters").optional()),
  /**
   * Domains alert emails may go to besides the scope's own people (D374): comma-separated
   * (`example.com, ops.example.org`). Unset: only the organization's members (an instance
   * channel: the instance's users).
   */
  GROUNDWORK_ALERT_EMAIL_DOMAINS: optionalString.pipe(
    z
      .string()
      .regex(/^\s*[a-z0-9.-]+\.[a-z]{2,}\s*(,\s*[a-z0-9.-]+\.[a-z]{2,}\s*)*$/i, "must be comma-separated domain names")
      .optional(),
  ),
  /** Dashboard exports (records, audit) streaming at once per user and per instance (D372). */
  GROUNDWORK_EXPORTS_PER_USER: z.coerce.number().int().min(1).max(100).default(2),
  GROUNDWORK_EXPORTS_PER_INSTANCE: z.coerce.number().int().min(1).max(1000).default(8),
  /** An export whose client reads nothing for this long is cut and its connection released (D373). */
  GROUNDWORK_EXPORT_STALL_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** Unlocks the secrets in backup archives (`backup create|verify|restore`, scheduled backups; D383). */
  GROUNDWORK_BACKUP_PASSPHRASE: optionalString,
  /** Scheduled backups (D386): the worker writes a daily archive here when set. */
  GROUNDWORK_BACKUP_DIR: optionalString,
  /** Scheduled backups kept in GROUNDWORK_BACKUP_DIR, the oldest removed first (default 7). */
  GROUNDWORK_BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
  /** The request log behind every request_id (D190); `off` records nothing. */
  GROUNDWORK_REQUEST_LOG: z.enum(["on", "off"]).default("on"),
  /** Days of raw request log kept; older daily partitions are dropped (D195). */
  GROUNDWORK_REQUEST_LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /**
   * `npm run simulate:devices` only: drive a running app over HTTP instead of in-process.
   * NOTE: Vite (vitest) sets BASE_URL to a bare path ("/"); only an absolute URL counts.
   */
  BASE_URL: optionalString.transform((value) => (value !== undefined && /^https?:\/\//.test(value) ? value : undefined)),
});

export type Env = z.infer<typeof schema>;

let cached: Env | undefined;

function formatEnvIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `  - ${issue.path.join(".") || "(root)"}: ${issue.message}`).join("\n");
}

export function parseEnv(source: NodeJS.ProcessEnv): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    throw new Error(`Invalid environment configuration:\n${formatEnvIssues(result.error)}`);
  }
  return result.data;
}

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** For the start script, which fills in DATABASE_URL once the embedded server is up. */
export function resetEnvCache(): void {
  cached = undefined;
}
