import { z } from "zod";

/** The public shape of an organization: the spec shows no fields, so only identity and time. */
export const organizationSchema = z.object({ id: z.string(), name: z.string(), created_at: z.iso.datetime() }).meta({ id: "Organization" });

export function toOrganizationDto(org: { id: string; name: string; createdAt: Date }) {
  return { id: org.id, name: org.name, created_at: org.createdAt.toISOString() };
}
