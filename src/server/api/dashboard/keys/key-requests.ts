import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { AppError } from "@/server/errors/app-error";
import { getApiKey } from "@/server/modules/api-keys/list-keys";
import { keyRoutes, listKeyRequests } from "@/server/modules/request-log/usage";
import { logReachFor, reachIncludes } from "@/server/modules/request-log/reach";
import { toLoggedRequestDto } from "../requests/get-request.types";
import { scopedPrincipal } from "@/server/modules/access/key-access";
import { keyRequestsInput, keyRequestsOutput } from "./key-usage.types";

/**
 * A key's recent requests, filterable by status class, route and time window, paged by cursor.
 * The request log's one reach rule applies (D197, D371): a member may see the key and its hourly
 * counts, not its log entries (client address, user agent, error messages).
 */
export const keyRequestsProcedure = sessionProcedure
  .input(keyRequestsInput)
  .output(keyRequestsOutput)
  .query(async ({ ctx, input }) => {
    const { organizationId, keyId, limit, cursor, ...filters } = input;
    await getApiKey(ctx.db, scopedPrincipal(ctx.viewer, organizationId, "read"), keyId);
    if (!reachIncludes(logReachFor(ctx.viewer), organizationId)) throw new AppError("forbidden", "Only organization admins see a key's request log.");
    const page = await listKeyRequests(ctx.db, keyId, filters, { limit, cursor });
    return { items: page.items.map(toLoggedRequestDto), nextCursor: page.nextCursor, routes: await keyRoutes(ctx.db, keyId) };
  });
