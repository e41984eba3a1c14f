import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { deleteDataSource } from "@/server/modules/data-sources/manage/delete-source";
import { sourcePrincipal } from "@/server/modules/access/source-access";
import { deleteSourceInput, deleteSourceOutput } from "./manage-source.types";

/** Delete, confirmed by the source's name (D133); the rows go in batches afterwards. */
export const deleteSourceProcedure = sessionProcedure
  .input(deleteSourceInput)
  .output(deleteSourceOutput)
  .mutation(async ({ ctx, input }) => {
    const deleted = await deleteDataSource(ctx.db, sourcePrincipal(ctx.viewer, input.organizationId, "manage"), input.sourceId, input.confirmName);
    return { id: deleted.id, name: deleted.name, kind: deleted.kind, liveRows: deleted.liveRows, tombstones: deleted.tombstones };
  });
