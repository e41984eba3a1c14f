import { randomBytes } from "node:crypto";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { registerServiceDatabase } from "@/server/db/service-database";
import { AppError } from "@/server/errors/app-error";
import { CLI_OPERATOR } from "@/server/modules/access/acting-principal";
import { useTestDatabase } from "@/test/db";
import { createManagedSource, type ManagedSourceInput } from "../../create-managed-source";
import { runSyncPass } from "../../sync/run-sync-pass";
import { useCustomerDatabase } from "../../testing/customer-database";
import { createTestOrganization, testSecrets } from "../../testing/source-fixtures";
import type { ConnectorTargets } from "../connector";
import { customerClient } from "../postgres-table/customer-client";
import { parsePostgresUrl } from "./postgres-target";

const db = useTestDatabase();
const customer = useCustomerDatabase();

const dns = (answers: Record<string, string[]>) => async (host: string) => answers[host] ?? [];
const strict = (answers: Record<string, string[]> = {}): ConnectorTargets => ({
  policy: { allowPrivate: false, resolve: dns(answers) },
  serviceDatabaseUrl: () => undefined,
});

type TableSourceInput = Extract<ManagedSourceInput, { kind: "postgres_table" }>;

function tableSource(organizationId: string, url: string): TableSourceInput {
  return { kind: "postgres_table", organizationId, name: "Target", config: { table: "public.t", keyColumn: "id" }, credentials: { url } };
}

/** Without `targets`: the default wiring (the operator setting, the registered service database). */
async function refusal(input: ManagedSourceInput, targets?: ConnectorTargets): Promise<string> {
  const error = await createManagedSource(db.prisma, testSecrets, CLI_OPERATOR, input, targets).catch((caught: unknown) => caught);
  expect(error, JSON.stringify(input)).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe("bad_request");
  return (error as AppError).message;
}

afterEach(() => vi.unstubAllEnvs());

describe("creating a source refuses every bypass of the target rules, naming the refused part", () => {
  it("Postgres URLs: encoded file parameters, no host, sockets, loopback / private / link-local / unspecified addresses", async () => {
    const org = await createTestOrganization(db.prisma);
    const targets = strict({ "db.example.com": ["203.0.113.20"], "sneaky.example.com": ["203.0.113.21", "10.1.2.3"], localhost: ["127.0.0.1", "::1"] });
    const cases: [string, string][] = [
      ["postgres://u:p@db.example.com/shop?%73slcert=/etc/passwd", "credentials.url: parameter sslcert is not allowed"],
      ["postgres://u:p@db.example.com/shop?ssl%72ootcert=/dev/zero", "credentials.url: parameter sslrootcert is not allowed"],
      ["postgres://u:p@db.example.com/shop?passfile=/root/.pgpass", "credentials.url: parameter passfile is not allowed"],
      ["postgres:///shop", "credentials.url: the connection URL names no host"],
      ["postgres://u@%2Ftmp/shop", "credentials.url: the host /tmp is a Unix socket"],
      ["postgres://u:p@127.0.0.1/shop", "credentials.url: the host 127.0.0.1 is a loopback address"],
      ["postgres://u:p@localhost/shop", "credentials.url: the host localhost (127.0.0.1) is a loopback address"],
      ["postgres://u:p@[::1]/shop", "credentials.url: the host ::1 is a loopback address"],
      ["postgres://u:p@[::ffff:7f00:1]/shop", "credentials.url: the host ::ffff:7f00:1 is a loopback address"],
      ["postgres://u:p@[::ffff:0:127.0.0.1]/shop", "credentials.url: the host ::ffff:0:7f00:1 is a loopback address"],
      [
        "postgres://u:p@[2001:0:4136:e378:8000:63bf:3fff:fdd2]/shop",
        "credentials.url: the host 2001:0:4136:e378:8000:63bf:3fff:fdd2 is a tunnelled or translated IPv4 address",
      ],
      ["postgres://u:p@0.0.0.0/shop", "credentials.url: the host 0.0.0.0 is an unspecified address"],
      ["postgres://u:p@[::]/shop", "credentials.url: the host :: is an unspecified address"],
      ["postgres://u:p@169.254.169.254/shop", "credentials.url: the host 169.254.169.254 is a link-local address"],
      ["postgres://u:p@[fe80::1]/shop", "credentials.url: the host fe80::1 is a link-local address"],
      ["postgres://u:p@192.168.0.10/shop", "credentials.url: the host 192.168.0.10 is a private address"],
      ["postgres://u:p@sneaky.example.com/shop", "credentials.url: the host sneaky.example.com (10.1.2.3) is a private address"],
    ];
    for (const [url, message] of cases) expect(await refusal(tableSource(org, url), targets), url).toContain(`Invalid data source. ${message}`);
    expect(await db.prisma.dataSource.count({ where: { organizationId: org } })).toBe(0);
  });

  it("CRM instance URLs: plain http, loopback, private", async () => {
    const org = await createTestOrganization(db.prisma);
    const crm = (instanceUrl: string): ManagedSourceInput => ({
      kind: "crm_object",
      organizationId: org,
      name: "CRM",
      config: { instanceUrl, object: "Account" },
      credentials: { clientId: "a", clientSecret: "b" },
    });
    const targets = strict({ "crm.example.com": ["203.0.113.30"], "crm.internal": ["172.20.0.4"] });
    expect(await refusal(crm("http://crm.example.com"), targets)).toBe("Invalid data source. config.instanceUrl: the instance URL must use https");
    expect(await refusal(crm("http://127.0.0.1:9999"), targets)).toMatch(
      /config\.instanceUrl: the instance URL must use https \(plain http is allowed only to a loopback host/,
    );
    expect(await refusal(crm("https://127.0.0.1"), targets)).toMatch(/config\.instanceUrl: the host 127\.0\.0\.1 is a loopback address/);
    expect(await refusal(crm("https://crm.internal"), targets)).toMatch(/config\.instanceUrl: the host crm\.internal \(172\.20\.0\.4\) is a private address/);
    await expect(createManagedSource(db.prisma, testSecrets, CLI_OPERATOR, crm("https://crm.example.com"), targets)).resolves.toMatchObject({
      id: expect.any(String),
    });
  });

  it("the service's own database (as registered by the entry point), even with private targets allowed and by another name", async () => {
    const org = await createTestOrganization(db.prisma);
    const own = new URL(db.url);
    own.hostname = "localhost";
    registerServiceDatabase(db.url);
    try {
      // The default wiring: the operator setting (on in these tests) and the registered database.
      const message = await refusal(tableSource(org, own.toString()));
      expect(message).toMatch(/credentials\.url: localhost:\d+\/gw_test_\w+ is this service's own database/);
      await expect(createManagedSource(db.prisma, testSecrets, CLI_OPERATOR, tableSource(org, customer.url))).resolves.toMatchObject({
        id: expect.any(String),
      });
    } finally {
      registerServiceDatabase(undefined);
    }
  });
});

describe("connecting to a tenant's database", () => {
  it("checks the addresses again at connect and connects to the checked address (a rebinding DNS cannot swap it)", async () => {
    await customer.query("CREATE TABLE public.rebound (id int PRIMARY KEY, name text)");
    await customer.query("INSERT INTO public.rebound VALUES (1, 'one')");
    const org = await createTestOrganization(db.prisma);
    const url = new URL(customer.url);
    url.hostname = "customer-db.test"; // not resolvable by the system: only through the policy's resolver
    const input: TableSourceInput = { ...tableSource(org, url.toString()), config: { table: "public.rebound", keyColumn: "id" } };
    const { id } = await createManagedSource(db.prisma, testSecrets, CLI_OPERATOR, input, strict({ "customer-db.test": ["203.0.113.40"] }));

    const rebound = await runSyncPass({ db: db.prisma, secrets: testSecrets, targets: strict({ "customer-db.test": ["127.0.0.1"] }) }, id, { trigger: "test" });
    expect(rebound).toMatchObject({
      status: "error",
      error:
        "Could not read public.rebound: the host customer-db.test (127.0.0.1) is a loopback address; the operator has not allowed private targets (GROUNDWORK_ALLOW_PRIVATE_TARGETS)",
    });

    const allowed: ConnectorTargets = {
      policy: { allowPrivate: true, resolve: dns({ "customer-db.test": ["127.0.0.1"] }) },
      serviceDatabaseUrl: () => undefined,
    };
    expect(await runSyncPass({ db: db.prisma, secrets: testSecrets, targets: allowed }, id, { trigger: "test" })).toMatchObject({
      status: "ok",
      counts: { inserted: 1 },
    });
  });

  it("never uses the service's PGPASSWORD (or ~/.pgpass) for a URL without a password", async () => {
    const role = `gw_reader_${randomBytes(4).toString("hex")}`;
    const password = `pw-${randomBytes(8).toString("hex")}`;
    await customer.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
    try {
      await customer.query("CREATE TABLE public.guarded (id int PRIMARY KEY)");
      await customer.query(`INSERT INTO public.guarded VALUES (1); GRANT SELECT ON public.guarded TO ${role}`);
      const org = await createTestOrganization(db.prisma);
      const url = new URL(customer.url);
      url.username = role;
      url.password = "";
      const input: TableSourceInput = { ...tableSource(org, url.toString()), config: { table: "public.guarded", keyColumn: "id" } };
      const { id } = await createManagedSource(db.prisma, testSecrets, CLI_OPERATOR, input);
      vi.stubEnv("PGPASSWORD", password);
      const outcome = await runSyncPass({ db: db.prisma, secrets: testSecrets }, id, { trigger: "test" });
      expect(outcome).toMatchObject({
        status: "error",
        error: expect.stringMatching(
          /^Could not read public\.guarded: the server at 127\.0\.0\.1:\d+\/\w+ asks for a password and the connection URL has none$/,
        ),
      });

      // The same role with its password in the URL reads fine: the refusal above is the missing password.
      url.password = password;
      const withPassword = await createManagedSource(db.prisma, testSecrets, CLI_OPERATOR, { ...input, credentials: { url: url.toString() } });
      expect(await runSyncPass({ db: db.prisma, secrets: testSecrets }, withPassword.id, { trigger: "test" })).toMatchObject({
        status: "ok",
        counts: { inserted: 1 },
      });
    } finally {
      vi.unstubAllEnvs();
      await customer.query(`DROP OWNED BY ${role}; DROP ROLE ${role}`);
    }
  });
});

describe("a tenant's connection borrows nothing from the service's environment", () => {
  it("PGSSLMODE, PGOPTIONS, PGCLIENTENCODING, PGREPLICATION, PGSSLNEGOTIATION are ignored", async () => {
    const parsed = parsePostgresUrl(customer.url);
    if (!parsed.ok) throw new Error(parsed.reason);
    // Each of these would break, or change, a connection that inherited them. Only the
    // tenant's client is opened while they are set (the service's own pool would take them).
    vi.stubEnv("PGSSLMODE", "require");
    vi.stubEnv("PGOPTIONS", "-c statement_timeout=1 -c search_path=nowhere");
    vi.stubEnv("PGCLIENTENCODING", "LATIN1");
    vi.stubEnv("PGREPLICATION", "database");
    vi.stubEnv("PGSSLNEGOTIATION", "direct");
    const client = customerClient(parsed.value, "127.0.0.1", { timeoutMs: 5_000, applicationName: "isolation-test" });
    vi.unstubAllEnvs();
    try {
      await client.connect();
      const { rows } = await client.query<{ ssl: boolean; timeout: string; path: string; encoding: string; replication: string }>(
        `SELECT (SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()) AS ssl, current_setting('statement_timeout') AS timeout,
                current_setting('search_path') AS path, current_setting('client_encoding') AS encoding,
                (SELECT backend_type FROM pg_stat_activity WHERE pid = pg_backend_pid()) AS replication`,
      );
      expect(rows[0]).toEqual({ ssl: false, timeout: "0", path: '"$user", public', encoding: "UTF8", replication: "client backend" });
    } finally {
      await client.end();
    }
  });
});

afterAll(() => registerServiceDatabase(undefined));
