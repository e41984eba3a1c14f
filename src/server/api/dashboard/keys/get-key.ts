import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { getApiKey } from "@/server/modules/api-keys/list-keys";
import { scopedPrincipal } from "@/server/modules/access/key-access";
import { toKeySummaryDto } from "./key.types";
import { getKeyInput, getKeyOutput } from "./get-key.types";

/** One key, polled by the rotation panel to show its last_used_at live (spec 5.9). */
export const getKeyProcedure = sessionProcedure
  .input(getKeyInput)
  .output(getKeyOutput)
  .query(async ({ ctx, input }) => {
    const principal = scopedPrincipal(ctx.viewer, input.organizationId, "read");
    return toKeySummaryDto(await getApiKey(ctx.db, principal, input.keyId));
  });
