import { z } from "zod";
import { auditEventSchema } from "./list-audit.types";

export const getAuditInput = z.object({ eventId: z.string().trim().min(1).max(200) });

export const getAuditOutput = z.object({
  event: auditEventSchema,
  /** An edit's before and after, field by field (D443); empty for an event that is not an edit. */
  changes: z.array(z.object({ field: z.string(), before: z.unknown(), after: z.unknown() })),
});
