import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { listDeliveries } from "@/server/modules/alerts/deliveries";
import { listOpenAlerts } from "@/server/modules/alerts/open-alerts";
import { alertPrincipal } from "./alert-access";
import { listDeliveriesInput, listDeliveriesOutput, openAlertsOutput, toDeliveryDto } from "./alerts.types";

/** The deliveries of a scope's channels, newest first, paged by cursor. */
export const listDeliveriesProcedure = sessionProcedure
  .input(listDeliveriesInput)
  .output(listDeliveriesOutput)
  .query(async ({ ctx, input }) => {
    const page = await listDeliveries(ctx.db, alertPrincipal(ctx.viewer, input.organizationId, "read"), input.organizationId, { cursor: input.cursor });
    return { items: page.items.map(toDeliveryDto), nextCursor: page.meta.next_cursor };
  });

/** The top bar's indicator: sources in trouble in the viewer's organizations (all, for owners and support). */
export const openAlertsProcedure = sessionProcedure.output(openAlertsOutput).query(async ({ ctx }) => {
  const { viewer } = ctx;
  const scope = viewer.isInstanceOwner || viewer.isSupport ? "all" : viewer.memberships.map((m) => m.organizationId);
  const open = await listOpenAlerts(ctx.db, scope);
  return { total: open.total, items: open.items.map((item) => ({ ...item, since: item.since.toISOString() })) };
});
