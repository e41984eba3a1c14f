import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { getApiKey } from "@/server/modules/api-keys/list-keys";
import { keyUsage, usageFreshness } from "@/server/modules/request-log/usage";
import { scopedPrincipal } from "@/server/modules/access/key-access";
import { keyUsageInput, keyUsageOutput } from "./key-usage.types";

/** Requests per hour by status class, from the hourly rollups only (D196), and whether they include the last use (D505). */
export const keyUsageProcedure = sessionProcedure
  .input(keyUsageInput)
  .output(keyUsageOutput)
  .query(async ({ ctx, input }) => {
    const principal = scopedPrincipal(ctx.viewer, input.organizationId, "read");
    const keys = [];
    for (const keyId of input.keyIds) keys.push(await getApiKey(ctx.db, principal, keyId));
    // NOTE: in this order (the key's stamp, then the log's newest entry, then the counts): a batch
    // written in between only adds to the counts, so "counted" is never claimed for counts without it.
    const freshness = await usageFreshness(ctx.db, keys, input.range);
    const series = await keyUsage(ctx.db, input.keyIds, input.range);
    return {
      readAt: new Date().toISOString(),
      series: keys.map((key) => {
        const fresh = freshness.get(key.id);
        return {
          keyId: key.id,
          points: (series.get(key.id) ?? []).map((p) => ({ hour: p.hour.toISOString(), counts: p.counts })),
          lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
          newestLoggedAt: fresh?.newestLoggedAt?.toISOString() ?? null,
          lastUseCounted: fresh?.lastUseCounted ?? true,
        };
      }),
    };
  });
