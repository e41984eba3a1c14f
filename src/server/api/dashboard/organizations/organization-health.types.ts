import { z } from "zod";
import type { HealthSummary, OrganizationHealth } from "@/server/modules/overview/organization-health";
import { iso, isoString } from "../iso";

export const organizationHealthInput = z.object({
  /** The organizations of the page on screen (the grid's page); the totals cover every one in reach. */
  organizationIds: z.array(z.string().min(1).max(200)).max(100),
});

const count = z.number().int();
const sourcesSchema = z.object({
  total: count,
  ok: count,
  needsAttention: count,
  error: count,
  neverSynced: count,
  stale: count,
  paused: count,
  inTrouble: count,
});
const requestsSchema = z
  .object({
    total: count,
    byClass: z.object({ "2xx": count, "4xx": count, "429": count, "5xx": count }),
    errors: count,
    errorRate: z.number().nullable(),
  })
  .nullable();
const healthFields = { sources: sourcesSchema, requests: requestsSchema, recordsToday: count, openAlerts: count };

export const organizationHealthOutput = z.object({
  window: z.object({ asOf: isoString, requestsSince: isoString, currentHourSince: isoString, recordsSince: isoString }),
  totals: z.object({ ...healthFields, organizations: count }),
  items: z.array(z.object({ organizationId: z.string(), ...healthFields })),
});
export type OrganizationHealthDto = z.infer<typeof organizationHealthOutput>;

export function toOrganizationHealthDto(summary: HealthSummary): OrganizationHealthDto {
  const { window } = summary;
  return {
    window: {
      asOf: iso(window.asOf),
      requestsSince: iso(window.requestsSince),
      currentHourSince: iso(window.currentHourSince),
      recordsSince: iso(window.recordsSince),
    },
    totals: summary.totals,
    items: summary.items satisfies OrganizationHealth[],
  };
}
