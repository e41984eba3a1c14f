import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { canAdminOrganization } from "@/server/modules/access/viewer";
import { getSourceDetail } from "@/server/modules/data-sources/source-detail";
import { sourcePrincipal } from "@/server/modules/access/source-access";
import { toSourceDetailDto } from "./source.types";
import { getSourceInput, getSourceOutput } from "./get-source.types";

export const getSourceProcedure = sessionProcedure
  .input(getSourceInput)
  .output(getSourceOutput)
  .query(async ({ ctx, input }) => {
    const detail = await getSourceDetail(ctx.db, sourcePrincipal(ctx.viewer, input.organizationId, "read"), input.sourceId);
    return { ...toSourceDetailDto(detail), canManage: canAdminOrganization(ctx.viewer, input.organizationId) };
  });
