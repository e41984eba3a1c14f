import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { testConnection, testSourceConnection } from "@/server/modules/data-sources/test-connection";
import { sourcePrincipal } from "@/server/modules/access/source-access";
import { dashboardSecrets } from "@/server/api/dashboard/sources/dashboard-secrets";
import { testConnectionInput, testConnectionOutput } from "./test-connection.types";
import { sourceInput } from "./source.types";

/**
 * The create form's "Test connection": a mutation (a POST behind the CSRF check, D66) because it
 * carries secrets, which must never sit in a GET's URL. Stores nothing (D105).
 */
export const testConnectionProcedure = sessionProcedure
  .input(testConnectionInput)
  .output(testConnectionOutput)
  .mutation(async ({ ctx, input }) => {
    sourcePrincipal(ctx.viewer, input.organizationId, "manage");
    return testConnection({ secrets: await dashboardSecrets() }, input.settings);
  });

/**
 * The edit form's "Test connection": the stored connection, so the form can offer the capture
 * modes the target allows (D282). A query in effect, kept a mutation like its twin above.
 */
export const testSavedConnectionProcedure = sessionProcedure
  .input(sourceInput)
  .output(testConnectionOutput)
  .mutation(async ({ ctx, input }) => {
    const principal = sourcePrincipal(ctx.viewer, input.organizationId, "manage");
    return testSourceConnection({ db: ctx.db, secrets: await dashboardSecrets() }, principal, input.sourceId);
  });
