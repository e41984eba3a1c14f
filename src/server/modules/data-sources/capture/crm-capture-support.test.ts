import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeCrm, type FakeCrm } from "../testing/fake-crm-server";
import { testSecrets } from "../testing/source-fixtures";
import { testConnection } from "../test-connection";

let crm: FakeCrm;
beforeAll(async () => {
  crm = await startFakeCrm();
  crm.setRecords("Account", ["Name"], [{ Id: "001000000000001", Name: "a" }]);
  crm.setRecords("AccountHistory", ["Field"], [{ Id: "017000000000001", Field: "Name" }], { stampField: null });
  crm.setRecords("Restricted", ["Name"], [{ Id: "a00000000000001", Name: "r" }], { replicateable: false });
});
afterAll(() => crm.close());

/** The fake CRM listens on loopback over http: allowed only with private targets on. */
const deps = { secrets: testSecrets, targets: { policy: { allowPrivate: true }, serviceDatabaseUrl: () => undefined } };
const check = (object: string) =>
  testConnection(deps, {
    kind: "crm_object",
    config: { instanceUrl: crm.url, object },
    credentials: { clientId: crm.clientId, clientSecret: crm.clientSecret },
  });

describe("test connection of a CRM object", () => {
  it("says modified_since is supported when the object has a stamp field and a delete log", async () => {
    expect(await check("Account")).toEqual({
      ok: true,
      columns: ["Id", "Name", "SystemModstamp"],
      rowsSampled: 1,
      captureModes: [
        { mode: "cdc", supported: false, reason: "only a Postgres table source can use it" },
        { mode: "modified_since", supported: true, reason: null },
        { mode: "xmin", supported: false, reason: "only a Postgres table source can use it" },
        { mode: "compare", supported: true, reason: null },
      ],
      bestCaptureMode: "modified_since",
    });
  });

  it("says why not for an object without a stamp field, and for one that is not replicateable", async () => {
    const modes = async (object: string) => {
      const result = await check(object);
      return result.ok ? { best: result.bestCaptureMode, modes: Object.fromEntries(result.captureModes.map((m) => [m.mode, m])) } : result;
    };
    expect(await modes("AccountHistory")).toMatchObject({
      best: "compare",
      modes: {
        compare: { supported: true },
        modified_since: { supported: false, reason: expect.stringMatching(/^AccountHistory has no SystemModstamp or LastModifiedDate field/) },
      },
    });
    expect(await modes("Restricted")).toMatchObject({
      best: "compare",
      modes: { modified_since: { supported: false, reason: expect.stringMatching(/^Restricted is not replicateable/) } },
    });
  });
});
