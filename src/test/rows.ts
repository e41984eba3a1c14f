import { createHash } from "node:crypto";
import type { Prisma, PrismaClient } from "@/server/db/types";

/** A row to seed directly (the sync engine that normally writes rows is not under test here). */
export interface SeedRow {
  id?: string;
  externalId: string;
  displayOrder: number | null;
  data?: Prisma.InputJsonObject;
  createdAt: Date;
  updatedAt: Date;
  deletedAt?: Date | null;
}

export async function createTestSource(db: PrismaClient, organizationId: string, name = "source"): Promise<string> {
  const source = await db.dataSource.create({ data: { organizationId, name, kind: "csv", columns: ["name"] } });
  return source.id;
}

export async function insertRows(db: PrismaClient, dataSourceId: string, rows: SeedRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.dataSourceRow.createMany({
    data: rows.map((row) => {
      const data = row.data ?? { name: row.externalId };
      return {
        ...(row.id ? { id: row.id } : {}),
        dataSourceId,
        externalId: row.externalId,
        data,
        dataHash: createHash("sha256").update(JSON.stringify(data)).digest("hex"),
        displayOrder: row.displayOrder,
        createdAt: row.createdAt,
        updatedAt: row.updatedAt,
        deletedAt: row.deletedAt ?? null,
      };
    }),
  });
}

export type RowSortParam = "display_order" | "-display_order" | "updated_at" | "-updated_at";

/**
 * The order a full walk must produce, from a plain ORDER BY on the same database: Postgres,
 * not JavaScript, decides how ids compare (collations differ) and where NULL display orders go
 * (its defaults: last ascending, first descending).
 */
export async function expectedRowIds(
  db: PrismaClient,
  dataSourceId: string,
  options: { sort: RowSortParam; includeDeleted: boolean; updatedAfter?: Date },
): Promise<string[]> {
  const column = options.sort.replace(/^-/, "") === "updated_at" ? "updated_at" : "display_order";
  const direction = options.sort.startsWith("-") ? "DESC" : "ASC";
  const rows = await db.$queryRawUnsafe<{ id: string }[]>(
    `SELECT id FROM data_source_rows
     WHERE data_source_id = $1 AND ($2::boolean OR deleted_at IS NULL) AND ($3::timestamptz IS NULL OR updated_at > $3)
     ORDER BY ${column} ${direction}, id ${direction}`,
    dataSourceId,
    options.includeDeleted,
    options.updatedAfter ?? null,
  );
  return rows.map((row) => row.id);
}
