import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { appRouter } from "@/server/api/v1/root";
import { listApiRoutes } from "@/server/api/v1/pipeline/routes";
import { listRequestLog, organizationNames } from "@/server/modules/request-log/browse";
import { logReachFor } from "@/server/modules/request-log/reach";
import { toLoggedRequestDto } from "./get-request.types";
import { listRequestsInput, listRequestsOutput } from "./list-requests.types";

let routeChoices: string[] | undefined;
/** The routes the log can hold, as it writes them (`/api/v1/…` templates, `unmatched`). */
function knownRoutes(): string[] {
  routeChoices ??= [...new Set(listApiRoutes(appRouter).map((route) => `/api/v1${route.path}`)), "unmatched"].sort();
  return routeChoices;
}

/**
 * The request log browser (D430): the instance's for owners and support, their organizations'
 * for admins; members and other organizations are refused (403) by the domain function.
 */
export const listRequestsProcedure = sessionProcedure
  .input(listRequestsInput)
  .output(listRequestsOutput)
  .query(async ({ ctx, input }) => {
    const { limit, cursor, ...filters } = input;
    const page = await listRequestLog(ctx.db, logReachFor(ctx.viewer), filters, { limit, cursor });
    const names = await organizationNames(ctx.db, page.items);
    return {
      items: page.items.map((item) => ({
        ...toLoggedRequestDto(item),
        surface: item.surface,
        userId: item.userId,
        organizationName: item.organizationId ? (names.get(item.organizationId) ?? null) : null,
      })),
      nextCursor: page.nextCursor,
      routes: knownRoutes(),
    };
  });
