import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { testConnection } from "@/server/modules/data-sources/test-connection";
import { sourcePrincipal } from "@/server/modules/access/source-access";
import { dashboardSecrets } from "@/server/api/dashboard/sources/dashboard-secrets";
import { testConnectionInput, testConnectionOutput } from "./test-connection.types";

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
