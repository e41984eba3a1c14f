import { z } from "zod";
import { envelope } from "@/server/api/v1/response-envelope";
import type { ApiMeta } from "@/server/api/v1/meta";

export const deleteOrganizationMeta: ApiMeta = {
  openapi: {
    method: "DELETE",
    path: "/organizations/{id}",
    tags: ["organizations"],
    summary: "Delete an organization",
    description: "Instance-scoped keys only. Removes the organization and everything in it; its API keys stop working.",
    protect: true,
  },
  access: "instance",
  scope: "organizations:write",
  orgParam: "id",
};

export const deleteOrganizationInput = z.object({ id: z.string().min(1).max(200) });

export const deleteOrganizationOutput = envelope(z.object({ id: z.string(), deleted: z.literal(true) }));
