import { z } from "zod";
import { listEnvelope } from "@/server/api/v1/response-envelope";
import type { ApiMeta } from "@/server/api/v1/meta";
import { paginationInput } from "@/server/api/pagination-input";
import { TIMESTAMP_FORMS, timestampParam } from "@/server/api/timestamp-param";
import { rowSchema } from "./row.types";
import { writeRowsPageBody } from "./rows-page-body";

export const listRowsMeta: ApiMeta = {
  openapi: {
    method: "GET",
    path: "/organizations/{organization_id}/data-sources/{data_source_id}/rows",
    tags: ["data sources"],
    summary: "List a data source's rows",
    description:
      "Every walk (first page to `next_cursor: null`) reads the rows as they were at its first page: no row is skipped or repeated while syncs commit. Devices delta-sync with `updated_after=<max updated_at seen>&include_deleted=true`, paging in `updated_at` order (the default when `updated_after` is given): removed rows arrive as tombstones with `deleted_at` set. A 400 on a `cursor` means: start that walk again. The device sync guide (/docs/device-sync) has the whole protocol.",
    protect: true,
  },
  access: "bearer",
  scope: "data_sources:read",
  orgParam: "organization_id",
  writeBody: writeRowsPageBody,
};

const ROW_SORTS = ["display_order", "-display_order", "updated_at", "-updated_at"] as const;

export const listRowsInput = z.object({
  organization_id: z.string().min(1).max(200),
  data_source_id: z.string().min(1).max(200),
  ...paginationInput(ROW_SORTS, "display_order"),
  // No fixed default here: the domain picks it (defaultRowSort), updated_at for delta walks.
  sort: z
    .enum(ROW_SORTS, { error: `must be one of ${ROW_SORTS.join(", ")}` })
    .meta({
      default: "display_order",
      description:
        "Default `display_order`; when `updated_after` is given and `sort` is omitted, `updated_at` (the order of a delta). A leading - means descending.",
    })
    .optional(),
  external_id: z
    .string()
    .min(1)
    .max(1000)
    .describe("Exact match on `external_id` (case-sensitive): at most one row, since it is unique per source; an empty `data` means no row has that key.")
    .optional(),
  updated_after: timestampParam("updated_after", "after")
    .describe(
      `Only rows written strictly after this instant (exclusive bound): pass the largest \`updated_at\` you hold. Accepts ${TIMESTAMP_FORMS}. A date and time without an offset is refused.`,
    )
    .optional(),
  include_deleted: z
    .enum(["true", "false"], { error: "include_deleted must be true or false" })
    .default("false")
    .describe("true also returns removed rows (tombstones, deleted_at set)."),
});

export const listRowsOutput = listEnvelope(rowSchema);
