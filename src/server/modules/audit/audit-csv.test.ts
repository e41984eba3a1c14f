import { describe, expect, it } from "vitest";
import { csvCell } from "@/server/modules/exports/csv-cells";
import { auditCsvLine } from "./audit-csv";

describe("audit CSV cells", () => {
  it.each([
    ['=HYPERLINK("http://x")', '"\'=HYPERLINK(""http://x"")"'],
    ["+1", "'+1"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tcmd", "'\tcmd"],
    ["\rcmd", '"\'\rcmd"'],
    ["plain", "plain"],
    ["a,b", '"a,b"'],
    ["", ""],
  ])("neutralises and quotes %j", (input, expected) => {
    expect(csvCell(input)).toBe(expected);
  });

  it("writes one line per event with its metadata as JSON", () => {
    const line = auditCsvLine({
      id: "e1",
      createdAt: new Date("2026-11-25T10:00:00.000Z"),
      action: "api_key.revoked",
      actorType: "user",
      actorId: "u1",
      actorLabel: "=evil@example.com",
      organizationId: "o1",
      organizationName: "Acme, Inc",
      targetType: "api_key",
      targetId: "k1",
      targetLabel: "ci (gw_live_AB…)",
      metadata: { prefix: "gw_live_AB" },
    });
    expect(line).toBe(
      `2026-11-25T10:00:00.000Z,api_key.revoked,user,u1,'=evil@example.com,o1,"Acme, Inc",api_key,k1,ci (gw_live_AB…),"{""prefix"":""gw_live_AB""}"`,
    );
  });
});
