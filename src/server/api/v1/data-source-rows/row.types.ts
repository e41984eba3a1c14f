import { z } from "zod";
import type { RowRecord } from "@/server/modules/data-source-rows/list-rows";

/** Exactly the fields of spec 2.4, plus the row's id and display order. */
export const rowSchema = z
  .object({
    id: z.string(),
    external_id: z.string(),
    data: z.record(z.string(), z.unknown()),
    display_order: z.number().nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    deleted_at: z.iso.datetime().nullable(),
  })
  .meta({ id: "DataSourceRow" });

export function toRowDto(row: RowRecord): z.infer<typeof rowSchema> {
  return {
    id: row.id,
    external_id: row.externalId,
    data: row.data as Record<string, unknown>,
    // NOTE: float8 admits Infinity and NaN, JSON does not; such an order is shown as none.
    display_order: row.displayOrder !== null && Number.isFinite(row.displayOrder) ? row.displayOrder : null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    deleted_at: row.deletedAt,
  };
}
