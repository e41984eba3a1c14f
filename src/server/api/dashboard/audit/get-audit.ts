import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { AppError } from "@/server/errors/app-error";
import { auditChanges } from "@/server/modules/audit/audit-changes";
import { getAuditEvent } from "@/server/modules/audit/list-audit-events";
import { logReachFor } from "@/server/modules/request-log/reach";
import { getAuditInput, getAuditOutput } from "./get-audit.types";
import { toAuditEventDto } from "./list-audit.types";

/** One audit event with its before and after; outside the viewer's reach it is "not found" (D197, D442). */
export const getAuditProcedure = sessionProcedure
  .input(getAuditInput)
  .output(getAuditOutput)
  .query(async ({ ctx, input }) => {
    const event = await getAuditEvent(ctx.db, logReachFor(ctx.viewer), input.eventId);
    if (!event) throw new AppError("not_found", `No audit event ${input.eventId}.`);
    return { event: toAuditEventDto(event), changes: auditChanges(event.action, event.metadata) };
  });
