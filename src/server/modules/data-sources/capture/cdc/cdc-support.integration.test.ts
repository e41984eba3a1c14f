import pg from "pg";
import { describe, expect, it } from "vitest";
import { useCustomerDatabase } from "../../testing/customer-database";
import { cdcSupport } from "./cdc-support";
import { useLogicalCustomer } from "./testing/logical-customer";

const logical = useLogicalCustomer();
const plain = useCustomerDatabase();
const table = (name: string) => ({ schema: "public", table: name });

async function check(url: string, name: string, key = "id") {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await cdcSupport(client, table(name), key, "groundwork_support_test");
  } finally {
    await client.end();
  }
}

describe("whether a customer's database supports CDC, and why not", () => {
  it("is supported with wal_level = logical, a publication covering the table, a keyed replica identity and REPLICATION", async () => {
    await logical.query(`CREATE TABLE public.ok_t (id int PRIMARY KEY, v text); CREATE PUBLICATION groundwork FOR TABLE public.ok_t`);
    await logical.query(`CREATE TABLE public.other_pub (id int PRIMARY KEY); CREATE PUBLICATION everything_else FOR TABLE public.other_pub`);
    expect(await check(logical.url, "ok_t")).toEqual({ supported: true, publication: "groundwork" });
    expect(await check(logical.url, "other_pub")).toEqual({ supported: true, publication: "everything_else" });
  });

  it("names what is missing", async () => {
    await plain.query(`CREATE TABLE public.replica_t (id int PRIMARY KEY)`);
    expect(await check(plain.url, "replica_t")).toEqual({ supported: false, reason: expect.stringContaining("wal_level is replica") });

    await logical.query(`CREATE TABLE public.unpublished (id int PRIMARY KEY)`);
    expect(await check(logical.url, "unpublished")).toEqual({ supported: false, reason: expect.stringContaining("no publication covers public.unpublished") });

    await logical.query(`CREATE TABLE public.keyless (id int, v text); CREATE PUBLICATION keyless_pub FOR TABLE public.keyless WITH (publish = 'insert')`);
    expect(await check(logical.url, "keyless")).toEqual({
      supported: false,
      reason: expect.stringContaining(`the key column "id" is not in the replica identity`),
    });
    await logical.query(`ALTER TABLE public.keyless REPLICA IDENTITY FULL`);
    expect(await check(logical.url, "keyless")).toMatchObject({ supported: true });
    await logical.query(`CREATE TABLE public.other_key (id int PRIMARY KEY, code text UNIQUE); CREATE PUBLICATION other_key_pub FOR TABLE public.other_key`);
    expect(await check(logical.url, "other_key", "code")).toMatchObject({
      supported: false,
      reason: expect.stringContaining(`"code" is not in the replica identity`),
    });

    const role = `gw_plain_${Math.random().toString(36).slice(2, 8)}`;
    await logical.query(`CREATE ROLE ${role} LOGIN PASSWORD 'pw'; GRANT SELECT ON public.ok_t TO ${role}`);
    const url = new URL(logical.url);
    url.username = role;
    url.password = "pw";
    expect(await check(url.toString(), "ok_t")).toEqual({ supported: false, reason: expect.stringContaining("no REPLICATION attribute") });
    await logical.query(`DROP OWNED BY ${role}; DROP ROLE ${role}`);
  });
});
