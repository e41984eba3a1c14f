import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { viewerReadingPrincipal } from "@/server/modules/access/reading-principal";
import { listOrganizations } from "@/server/modules/organizations/list-organizations";
import { PICKER_PAGE_SIZE, pickOrganizationsInput, pickOrganizationsOutput } from "./pick-organizations.types";

/**
 * The organization picker's pages, by name (D332): owners and support search every organization,
 * members only their own. Paged by cursor, so an instance with thousands of organizations works.
 */
export const pickOrganizationsProcedure = sessionProcedure
  .input(pickOrganizationsInput)
  .output(pickOrganizationsOutput)
  .query(async ({ ctx, input }) => {
    const page = await listOrganizations(ctx.db, {
      limit: PICKER_PAGE_SIZE,
      sort: "name",
      cursor: input.cursor,
      nameContains: input.query,
      principal: viewerReadingPrincipal(ctx.viewer),
    });
    return { items: page.items.map((o) => ({ id: o.id, name: o.name })), nextCursor: page.meta.next_cursor };
  });
