import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { getApiKey } from "@/server/modules/api-keys/list-keys";
import { keyUsage } from "@/server/modules/request-log/usage";
import { keyPrincipalFor } from "@/server/modules/access/key-access";
import { keyUsageInput, keyUsageOutput } from "./key-usage.types";

/** Requests per hour by status class, from the hourly rollups only (D196). */
export const keyUsageProcedure = sessionProcedure
  .input(keyUsageInput)
  .output(keyUsageOutput)
  .query(async ({ ctx, input }) => {
    const principal = keyPrincipalFor(ctx.viewer, input.organizationId, "read");
    for (const keyId of input.keyIds) await getApiKey(ctx.db, principal, keyId);
    const series = await keyUsage(ctx.db, input.keyIds, input.range);
    return {
      series: input.keyIds.map((keyId) => ({
        keyId,
        points: (series.get(keyId) ?? []).map((p) => ({ hour: p.hour.toISOString(), counts: p.counts })),
      })),
    };
  });
