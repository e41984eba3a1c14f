import type { PrismaClient } from "@/server/db/types";
import { canonicalJson } from "@/server/lib/canonical-json";
import { serverLiveRows } from "./compare";
import type { CustomerQueries } from "./table-writer";

/**
 * The mirror against the customer's own table at the end of a run: every customer row is live on
 * the server with the same values, and the server holds no other live row but the deletions the
 * guardrail held back (declined_deletions, awaiting an owner's approval). Devices are compared
 * with the server; this compares the server with the source of truth, so a change the capture
 * never applied shows even when every device agrees with the server.
 */
export async function mirrorDifferences(db: PrismaClient, customer: CustomerQueries, table: string, sourceId: string): Promise<string[]> {
  const result = (await customer.query(`SELECT id, row_to_json(t) AS data FROM ${table} t`)) as { rows: { id: string; data: unknown }[] };
  const server = await serverLiveRows(db, sourceId);
  const problems: string[] = [];
  for (const row of result.rows) {
    const mirrored = server.get(row.id);
    if (!mirrored) problems.push(`${row.id}: in the customer's table, not live on the server`);
    else if (canonicalJson(mirrored.data) !== canonicalJson(row.data))
      problems.push(`${row.id}: server has ${JSON.stringify(mirrored.data)}, customer has ${JSON.stringify(row.data)}`);
  }
  const customerIds = new Set(result.rows.map((row) => row.id));
  const extra = [...server.keys()].filter((id) => !customerIds.has(id));
  const { declinedDeletions } = await db.dataSource.findUniqueOrThrow({ where: { id: sourceId }, select: { declinedDeletions: true } });
  if (extra.length !== declinedDeletions) {
    problems.push(
      `${extra.length} rows live on the server but deleted at the customer (${declinedDeletions} held back by the guardrail): ${extra.slice(0, 12).join(" ")}`,
    );
  }
  return problems;
}
