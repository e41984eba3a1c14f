import { z } from "zod";
import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { organizationGrid } from "@/server/modules/organizations/organization-grid";
import { organizationOverviewSchema, toOrganizationOverviewDto } from "./organization.types";

const organizationGridInput = z.object({
  search: z.string().max(200).optional(),
  cursor: z.string().min(1).max(2000).optional(),
  /** Organizations a page (the overview's cards: 24; the organizations table: 100). */
  limit: z.number().int().min(1).max(100).optional(),
});
const organizationGridOutput = z.object({
  items: z.array(organizationOverviewSchema),
  nextCursor: z.string().nullable(),
  totals: z.object({ organizations: z.number().int(), activeKeys: z.number().int() }),
});

/** The overview's grid and the organizations table: owners and support page through every organization, members their own. */
export const organizationGridProcedure = sessionProcedure
  .input(organizationGridInput)
  .output(organizationGridOutput)
  .query(async ({ ctx, input }) => {
    const { viewer } = ctx;
    const ids = viewer.isInstanceOwner || viewer.isSupport ? "all" : viewer.memberships.map((m) => m.organizationId);
    const grid = await organizationGrid(ctx.db, ids, { search: input.search, cursor: input.cursor, limit: input.limit });
    return { ...grid, items: grid.items.map(toOrganizationOverviewDto) };
  });
