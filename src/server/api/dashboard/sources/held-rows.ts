import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { sourcePrincipal } from "@/server/modules/access/source-access";
import { listHeldRows } from "@/server/modules/data-sources/deletion-review";
import { iso } from "../iso";
import { heldRowsInput, heldRowsOutput } from "./held-rows.types";

/** Every row the guardrail holds back, paged by cursor, searchable (D465): read before approving. */
export const heldRowsProcedure = sessionProcedure
  .input(heldRowsInput)
  .output(heldRowsOutput)
  .query(async ({ ctx, input }) => {
    const page = await listHeldRows(ctx.db, sourcePrincipal(ctx.viewer, input.organizationId, "read"), input.sourceId, input);
    return { ...page, items: page.items.map((row) => ({ externalId: row.externalId, data: row.data, updatedAt: iso(row.updatedAt) })) };
  });
