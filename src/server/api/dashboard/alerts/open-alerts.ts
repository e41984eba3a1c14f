import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { listOpenAlerts } from "@/server/modules/alerts/open-alerts";
import { openAlertsOutput } from "./open-alerts.types";

/** The top bar's indicator: sources in trouble in the viewer's organizations (all, for owners and support). */
export const openAlertsProcedure = sessionProcedure.output(openAlertsOutput).query(async ({ ctx }) => {
  const { viewer } = ctx;
  const scope = viewer.isInstanceOwner || viewer.isSupport ? "all" : viewer.memberships.map((m) => m.organizationId);
  const open = await listOpenAlerts(ctx.db, scope);
  return { total: open.total, items: open.items.map((item) => ({ ...item, since: item.since.toISOString() })) };
});
