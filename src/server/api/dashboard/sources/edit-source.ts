import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { editDataSource } from "@/server/modules/data-sources/manage/edit-source";
import { sourcePrincipal } from "@/server/modules/access/source-access";
import { dashboardSecrets } from "@/server/api/dashboard/sources/dashboard-secrets";
import { editSourceInput, editSourceOutput } from "./manage-source.types";

/** Name, schedule, settings and connection (D132); the connection is tested before it is saved. */
export const editSourceProcedure = sessionProcedure
  .input(editSourceInput)
  .output(editSourceOutput)
  .mutation(async ({ ctx, input }) => {
    const { organizationId, sourceId, ...edit } = input;
    const principal = sourcePrincipal(ctx.viewer, organizationId, "manage");
    return editDataSource({ db: ctx.db, secrets: await dashboardSecrets() }, principal, sourceId, edit);
  });
