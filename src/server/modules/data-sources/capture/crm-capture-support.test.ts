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
  testConnection(deps, { kind: "crm_object", config: { instanceUrl: crm.url, object }, credentials: { clientId: crm.clientId, clientSecret: crm.clientSecret } });

describe("test connection of a CRM object", () => {
  it("says modified_since is supported when the object has a stamp field and a delete log", async () => {
    expect(await check("Account")).toEqual({
      ok: true,
      columns: ["Id", "Name", "SystemModstamp"],
      rowsSampled: 1,
      // Every mode, best first (capture-modes.ts): the table-only modes say why not.
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
    expect(await check("AccountHistory")).toMatchObject({
      ok: true,
      captureModes: [
        { mode: "cdc", supported: false },
        { mode: "modified_since", supported: false, reason: expect.stringMatching(/^AccountHistory has no SystemModstamp or LastModifiedDate field/) },
        { mode: "xmin", supported: false },
        { mode: "compare", supported: true },
      ],
      bestCaptureMode: "compare",
    });
    expect(await check("Restricted")).toMatchObject({
      captureModes: [
        { mode: "cdc" },
        { mode: "modified_since", supported: false, reason: expect.stringMatching(/^Restricted is not replicateable/) },
        { mode: "xmin" },
        { mode: "compare", supported: true },
      ],
      bestCaptureMode: "compare",
    });
  });
});
