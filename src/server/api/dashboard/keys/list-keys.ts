import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { listApiKeys } from "@/server/modules/api-keys/list-keys";
import { scopedPrincipal } from "@/server/modules/access/key-access";
import { toKeySummaryDto } from "./key.types";
import { listKeysInput, listKeysOutput } from "./list-keys.types";

/** Active, expired and revoked keys alike: revoked keys stay listed for audit (spec 3.1). */
export const listKeysProcedure = sessionProcedure
  .input(listKeysInput)
  .output(listKeysOutput)
  .query(async ({ ctx, input }) => {
    const principal = scopedPrincipal(ctx.viewer, input.organizationId, "read");
    const page = await listApiKeys(ctx.db, principal, { organizationId: input.organizationId }, { limit: input.limit, cursor: input.cursor });
    return { items: page.items.map(toKeySummaryDto), nextCursor: page.meta.next_cursor };
  });
