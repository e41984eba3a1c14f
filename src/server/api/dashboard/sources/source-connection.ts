import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { sourceConnectionView } from "@/server/modules/data-sources/manage/connection-view";
import { sourcePrincipal } from "@/server/modules/access/source-access";
import { dashboardSecrets } from "@/server/api/dashboard/sources/dashboard-secrets";
import { sourceConnectionInput, sourceConnectionOutput } from "./manage-source.types";

/** The edit form's current connection (managers only): every part but the secrets. */
export const sourceConnectionProcedure = sessionProcedure
  .input(sourceConnectionInput)
  .output(sourceConnectionOutput)
  .query(async ({ ctx, input }) => {
    return sourceConnectionView({ db: ctx.db, secrets: await dashboardSecrets() }, sourcePrincipal(ctx.viewer, input.organizationId, "manage"), input.sourceId);
  });
