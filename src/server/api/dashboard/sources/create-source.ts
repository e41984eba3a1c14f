import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { createDataSource } from "@/server/modules/data-sources/create-source";
import { isoOrNull } from "../iso";
import { sourcePrincipal } from "@/server/modules/access/source-access";
import { dashboardSecrets } from "@/server/api/dashboard/sources/dashboard-secrets";
import { createSourceInput, createSourceOutput } from "./create-source.types";

/** CSV, Postgres table or CRM object; the connector target rules are the domain's (refused with a reason). */
export const createSourceProcedure = sessionProcedure
  .input(createSourceInput)
  .output(createSourceOutput)
  .mutation(async ({ ctx, input }) => {
    const principal = sourcePrincipal(ctx.viewer, input.organizationId, "manage");
    const created = await createDataSource(ctx.db, await dashboardSecrets(), principal, input.organizationId, input.source);
    return { id: created.id, syncIntervalSeconds: created.syncIntervalSeconds, nextDueAt: isoOrNull(created.nextDueAt) };
  });
