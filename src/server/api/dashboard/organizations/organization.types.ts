import { z } from "zod";
import type { OrganizationOverview } from "@/server/modules/organizations/organization-overview";
import { iso, isoString } from "../iso";

export const organizationIdInput = z.object({ organizationId: z.string().min(1).max(200) });

export const organizationOverviewSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: isoString,
  memberCount: z.number().int(),
  activeKeyCount: z.number().int(),
});

export function toOrganizationOverviewDto(o: OrganizationOverview): z.infer<typeof organizationOverviewSchema> {
  return { ...o, createdAt: iso(o.createdAt) };
}
