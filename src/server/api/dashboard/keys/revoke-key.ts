import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { getApiKey } from "@/server/modules/api-keys/list-keys";
import { revokeApiKey } from "@/server/modules/api-keys/revoke-key";
import { scopedPrincipal } from "@/server/modules/access/key-access";
import { toKeySummaryDto } from "./key.types";
import { revokeKeyInput, revokeKeyOutput } from "./revoke-key.types";

/** Permanent; a key outside the viewer's organization is "not found" and stays untouched. */
export const revokeKeyProcedure = sessionProcedure
  .input(revokeKeyInput)
  .output(revokeKeyOutput)
  .mutation(async ({ ctx, input }) => {
    const principal = scopedPrincipal(ctx.viewer, input.organizationId, "manage");
    await revokeApiKey(ctx.db, principal, input.keyId);
    return toKeySummaryDto(await getApiKey(ctx.db, principal, input.keyId));
  });
