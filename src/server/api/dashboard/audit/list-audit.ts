import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { listAuditActions, listAuditEvents } from "@/server/modules/audit/list-audit-events";
import { logReachFor } from "@/server/modules/request-log/reach";
import { listAuditInput, listAuditOutput, toAuditEventDto } from "./list-audit.types";

/** The audit trail: owners and support see all, everyone else their organizations' (D197, D200). */
export const listAuditProcedure = sessionProcedure
  .input(listAuditInput)
  .output(listAuditOutput)
  .query(async ({ ctx, input }) => {
    const { limit, cursor, ...filters } = input;
    const reach = logReachFor(ctx.viewer);
    const page = await listAuditEvents(ctx.db, reach, filters, { limit, cursor });
    return { items: page.items.map(toAuditEventDto), nextCursor: page.nextCursor, actions: await listAuditActions(ctx.db, reach) };
  });
