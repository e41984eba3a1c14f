import { randomBytes } from "node:crypto";
import pg from "pg";
import type { PrismaClient } from "@/server/db/types";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { createManagedSource } from "@/server/modules/data-sources/create-managed-source";
import { createSecretBox } from "@/server/modules/data-sources/credentials/secret-box";
import { createOrganization } from "@/server/modules/organizations/create-organization";

export interface Fixture {
  organizationId: string;
  rowsSourceId: string;
  syncSourceId: string;
  token: string;
  encryptionKeyHex: string;
}

/**
 * An organization, a key with a budget the load cannot exhaust, a source whose `rows` rows are
 * written straight in SQL (the rows benchmark must not wait for a sync), and a Postgres-table
 * source over the customer table the sync benchmark mirrors. Rows look like a mirrored
 * customer table: display order with ties and gaps (every 50th row has none), 2.5 % tombstones.
 */
export async function seed(db: PrismaClient, appUrl: string, customerUrl: string, rows: number): Promise<Fixture> {
  const encryptionKey = randomBytes(32);
  const organizationId = (await createOrganization(db, CLI_OPERATOR, "Benchmark")).id;
  const key = await mintApiKey(db, CLI_OPERATOR, { name: "bench", scopes: "data_sources:read", organizationId, rateLimit: 1_000_000 });
  const secrets = createSecretBox(encryptionKey);
  const config = { table: "public.customers", keyColumn: "id" };
  // The customer table lives on the benchmark's own local server: private targets allowed.
  const targets = { policy: { allowPrivate: true }, serviceDatabaseUrl: () => appUrl };
  const rowsSource = await createManagedSource(
    db,
    secrets,
    CLI_OPERATOR,
    { kind: "postgres_table", organizationId, name: "rows", config, credentials: { url: customerUrl } },
    targets,
  );
  const syncSource = await createManagedSource(
    db,
    secrets,
    CLI_OPERATOR,
    { kind: "postgres_table", organizationId, name: "sync", config, credentials: { url: customerUrl } },
    targets,
  );

  const app = new pg.Client({ connectionString: appUrl });
  await app.connect();
  try {
    await app.query(
      `INSERT INTO data_source_rows (id, data_source_id, external_id, data, data_hash, display_order, created_at, updated_at, deleted_at)
       SELECT gen_random_uuid()::text, $1, g::text,
              jsonb_build_object('id', g, 'name', 'Customer ' || g, 'email', 'c' || g || '@example.com',
                                 'city', (ARRAY['Lyon','Oslo','Lima','Pune'])[1 + g % 4], 'score', g % 1000),
              md5(g::text),
              CASE WHEN g % 50 = 0 THEN NULL ELSE (g / 3)::float8 END,
              now() - interval '30 days', now() - make_interval(secs => ($2 - g) / 10.0),
              CASE WHEN g % 40 = 0 THEN now() - make_interval(secs => ($2 - g) / 10.0) END
         FROM generate_series(1, $2) g`,
      [rowsSource.id, rows],
    );
    await app.query("VACUUM ANALYZE data_source_rows");
  } finally {
    await app.end();
  }

  const customer = new pg.Client({ connectionString: customerUrl });
  await customer.connect();
  try {
    await customer.query(
      "CREATE TABLE public.customers (id int PRIMARY KEY, name text, email text, city text, score int, balance numeric(12,2), updated_at timestamptz)",
    );
    await customer.query(
      `INSERT INTO public.customers
       SELECT g, 'Customer ' || g, 'c' || g || '@example.com', (ARRAY['Lyon','Oslo','Lima','Pune'])[1 + g % 4], g % 1000,
              (g * 7 % 100000) / 100.0, timestamptz '2026-01-01' + make_interval(secs => g)
         FROM generate_series(1, $1) g`,
      [rows],
    );
    await customer.query("VACUUM ANALYZE public.customers");
  } finally {
    await customer.end();
  }
  return { organizationId, rowsSourceId: rowsSource.id, syncSourceId: syncSource.id, token: key.token, encryptionKeyHex: encryptionKey.toString("hex") };
}
