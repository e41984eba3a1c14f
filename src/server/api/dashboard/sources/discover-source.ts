import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { discoverSavedSource, discoverSource, type DiscoverSourceInput } from "@/server/modules/data-sources/discover-source";
import { sourcePrincipal } from "@/server/modules/access/source-access";
import { dashboardSecrets } from "@/server/api/dashboard/sources/dashboard-secrets";
import { discoverSavedSourceInput, discoverSourceInput, discoverSourceOutput } from "./discover-source.types";

/**
 * The create form's "Test connection" (D493): readable tables, a table's columns, the capture
 * modes. A mutation (a POST behind the CSRF check) because it carries the password. Stores nothing.
 */
export const discoverSourceProcedure = sessionProcedure
  .input(discoverSourceInput)
  .output(discoverSourceOutput)
  .mutation(async ({ ctx, input }) => {
    sourcePrincipal(ctx.viewer, input.organizationId, "manage");
    return discoverSource(
      { secrets: await dashboardSecrets() },
      { credentials: input.credentials as DiscoverSourceInput["credentials"], table: input.table, keyColumn: input.keyColumn },
    );
  });

/** The edit form's "Test connection": the stored connection with the form's changes (D360 applies). */
export const discoverSavedSourceProcedure = sessionProcedure
  .input(discoverSavedSourceInput)
  .output(discoverSourceOutput)
  .mutation(async ({ ctx, input }) => {
    const principal = sourcePrincipal(ctx.viewer, input.organizationId, "manage");
    return discoverSavedSource({ db: ctx.db, secrets: await dashboardSecrets() }, principal, input.sourceId, input.connection);
  });
