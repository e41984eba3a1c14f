import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { healthReachForViewer, organizationHealth } from "@/server/modules/overview/organization-health";
import { organizationHealthInput, organizationHealthOutput, toOrganizationHealthDto } from "./organization-health.types";

/**
 * The Overview's and Organizations page's health (issue 44). Any signed-in viewer; the reach is
 * the server's: owners and support every organization, others their own, and request figures
 * only where the request log is theirs to read (D197). A read: no audit event (D434).
 */
export const organizationHealthProcedure = sessionProcedure
  .input(organizationHealthInput)
  .output(organizationHealthOutput)
  .query(async ({ ctx, input }) => toOrganizationHealthDto(await organizationHealth(ctx.db, healthReachForViewer(ctx.viewer), input.organizationIds)));
