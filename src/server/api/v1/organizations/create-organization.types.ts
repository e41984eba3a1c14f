import { z } from "zod";
import { envelope } from "@/server/api/v1/response-envelope";
import type { ApiMeta } from "@/server/api/v1/meta";
import { organizationSchema } from "./organization.types";

export const createOrganizationMeta: ApiMeta = {
  openapi: {
    method: "POST",
    path: "/organizations",
    tags: ["organizations"],
    summary: "Create an organization",
    description: "Instance-scoped keys only. The spec shows no body; this takes the minimal `{ name }`.",
    protect: true,
  },
  access: "instance",
  scope: "organizations:write",
  successStatus: 201,
};

export const createOrganizationInput = z.object({
  name: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"),
});

export const createOrganizationOutput = envelope(organizationSchema);
