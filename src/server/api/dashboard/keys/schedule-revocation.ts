import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { getApiKey } from "@/server/modules/api-keys/list-keys";
import { cancelKeyRevocation, scheduleKeyRevocation } from "@/server/modules/api-keys/scheduled-revocation";
import { scopedPrincipal } from "@/server/modules/access/key-access";
import { toKeySummaryDto } from "./key.types";
import { cancelRevocationInput, cancelRevocationOutput, revocationTime, scheduleRevocationInput, scheduleRevocationOutput } from "./schedule-revocation.types";

/** Revocation at a time (D480): the same role as revoking now. */
export const scheduleRevocationProcedure = sessionProcedure
  .input(scheduleRevocationInput)
  .output(scheduleRevocationOutput)
  .mutation(async ({ ctx, input }) => {
    const principal = scopedPrincipal(ctx.viewer, input.organizationId, "manage");
    await scheduleKeyRevocation(ctx.db, principal, input.keyId, revocationTime(input.when));
    return toKeySummaryDto(await getApiKey(ctx.db, principal, input.keyId));
  });

export const cancelRevocationProcedure = sessionProcedure
  .input(cancelRevocationInput)
  .output(cancelRevocationOutput)
  .mutation(async ({ ctx, input }) => {
    const principal = scopedPrincipal(ctx.viewer, input.organizationId, "manage");
    await cancelKeyRevocation(ctx.db, principal, input.keyId);
    return toKeySummaryDto(await getApiKey(ctx.db, principal, input.keyId));
  });
