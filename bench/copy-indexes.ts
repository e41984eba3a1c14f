import { rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { createDatabase, databaseUrl, dropDatabase, randomDatabaseName } from "@/server/db/admin";
import { prepareDatabase } from "@/server/db/bootstrap";

/**
 * `node --import tsx bench/copy-indexes.ts [rows]` (issue 27, the first pass): what one `COPY …
 * FROM` of first-pass-shaped rows (ids ascending in read order, one source, one stamp) costs
 * into tables with the rows table's six indexes before D345, with its indexes since (four, plus
 * two tombstone-only partial indexes instead of the two that covered every row), with the six
 * over `uuid` instead of `text` ids, and into
 * the heap alone; two rounds, a CHECKPOINT before each copy, WAL and size reported. Runs on the
 * bench's embedded server in a database of its own, dropped at the end.
 */
const N = Number(process.argv[2] ?? 500_000);
const server = await prepareDatabase({ dataDir: path.resolve(".data/bench-postgres"), log: () => undefined });
const admin = databaseUrl(server.url, "postgres");
const name = randomDatabaseName("gw_copyx");
await createDatabase(admin, name);
const c = new pg.Client(databaseUrl(admin, name));
await c.connect();
const file = `/tmp/copyx-${process.pid}.tsv`;
try {
  await c.query(`CREATE TABLE src AS SELECT '00000000-0000-7000-8000-' || lpad(to_hex(g), 12, '0') AS id, '8d3c3d2e-1111-4222-8333-444455556666'::text AS data_source_id, g::text AS external_id,
    jsonb_build_object('id', g, 'name', 'Customer ' || g, 'email', 'c' || g || '@example.com', 'city', (ARRAY['Lyon','Oslo','Lima','Pune'])[1 + g % 4], 'score', g % 1000, 'balance', (g * 7 % 100000) / 100.0, 'updated_at', '2026-01-01T00:00:00Z') AS data,
    encode(sha256(g::text::bytea), 'hex') AS data_hash, g::float8 AS display_order, now() AS created_at, now() AS updated_at FROM generate_series(1, ${N}) g`);
  await c.query(`COPY src TO '${file}'`);
  const cols =
    "id text, data_source_id text, external_id text, data jsonb, data_hash text, display_order float8, created_at timestamptz(3), updated_at timestamptz(3), deleted_at timestamptz(3)";
  const ucols = cols.replace("id text, data_source_id text", "id uuid, data_source_id uuid");
  const six = (t: string) => [
    `ALTER TABLE ${t} ADD PRIMARY KEY (id)`,
    `CREATE UNIQUE INDEX ON ${t} (data_source_id, external_id)`,
    `CREATE INDEX ON ${t} (data_source_id, updated_at, id)`,
    `CREATE INDEX ON ${t} (data_source_id, (COALESCE(display_order, 'Infinity'::float8)), id)`,
    `CREATE INDEX ON ${t} (data_source_id, (COALESCE(display_order, 'Infinity'::float8)), id) WHERE deleted_at IS NULL`,
    `CREATE INDEX ON ${t} (data_source_id, updated_at, id) WHERE deleted_at IS NULL`,
  ];
  const variants: Record<string, { cols: string; ddl: (t: string) => string[] }> = {
    six: { cols, ddl: six },
    four_plus_tombstones: {
      cols,
      ddl: (t) => [
        six(t)[0]!,
        six(t)[1]!,
        six(t)[4]!,
        six(t)[5]!,
        `CREATE INDEX ON ${t} (data_source_id, updated_at, id) WHERE deleted_at IS NOT NULL`,
        `CREATE INDEX ON ${t} (data_source_id, (COALESCE(display_order, 'Infinity'::float8)), id) WHERE deleted_at IS NOT NULL`,
      ],
    },
    six_uuid: { cols: ucols, ddl: six },
    heap_only: { cols, ddl: () => [] },
  };
  for (const round of [1, 2]) {
    for (const [v, { cols: cl, ddl }] of Object.entries(variants)) {
      const t = `t_${v}`;
      await c.query(`DROP TABLE IF EXISTS ${t}`);
      await c.query(`CREATE TABLE ${t} (${cl})`);
      for (const s of ddl(t)) await c.query(s);
      await c.query("CHECKPOINT");
      const w0 = (await c.query("SELECT pg_current_wal_lsn() AS l")).rows[0].l;
      const t0 = performance.now();
      await c.query(`COPY ${t} (id, data_source_id, external_id, data, data_hash, display_order, created_at, updated_at) FROM '${file}'`);
      const s = (performance.now() - t0) / 1000;
      const wal = (await c.query(`SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '${w0}') AS d`)).rows[0].d;
      const size = (await c.query(`SELECT pg_total_relation_size('${t}') AS s`)).rows[0].s;
      console.log(
        `round ${round} ${v}: ${s.toFixed(2)} s (${(N / s).toFixed(0)} rows/s), WAL ${(wal / 1e6).toFixed(0)} MB, size ${(size / 1e6).toFixed(0)} MB`,
      );
      await c.query(`DROP TABLE ${t}`);
    }
  }
} finally {
  await c.end();
  // Written by the server (its COPY … TO a file); removed here, or it is left truncated to nothing.
  await rm(file, { force: true }).catch(() => undefined);
  await dropDatabase(admin, name).catch(() => undefined);
  await server.stop();
}
process.exit(0);
