import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { getApiKey } from "@/server/modules/api-keys/list-keys";
import { mintApiKey } from "@/server/modules/api-keys/mint-key";
import { rotateApiKey } from "@/server/modules/api-keys/rotate-key";
import { scopedPrincipal } from "@/server/modules/access/key-access";
import { toKeySummaryDto } from "./key.types";
import { mintKeyInput, mintKeyOutput } from "./mint-key.types";

export const mintKeyProcedure = sessionProcedure
  .input(mintKeyInput)
  .output(mintKeyOutput)
  .mutation(async ({ ctx, input }) => {
    const principal = scopedPrincipal(ctx.viewer, input.organizationId, "manage");
    const settings = {
      name: input.name,
      scopes: input.scopes,
      organizationId: input.organizationId,
      environment: input.environment,
      expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
      rateLimit: input.rateLimit,
    };
    const minted = input.rotates
      ? await rotateApiKey(ctx.db, principal, input.rotates.keyId, settings, input.rotates.revokeOldIn)
      : await mintApiKey(ctx.db, principal, settings);
    return { key: toKeySummaryDto(await getApiKey(ctx.db, principal, minted.id)), token: minted.token };
  });
