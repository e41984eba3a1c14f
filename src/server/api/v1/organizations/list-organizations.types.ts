import { z } from "zod";
import { listEnvelope } from "@/server/api/v1/response-envelope";
import type { ApiMeta } from "@/server/api/v1/meta";
import { paginationInput } from "@/server/api/pagination-input";
import { organizationSchema } from "./organization.types";

export const listOrganizationsMeta: ApiMeta = {
  openapi: {
    method: "GET",
    path: "/organizations",
    tags: ["organizations"],
    summary: "List organizations",
    description: "An organization-scoped key sees only its own organization.",
    protect: true,
  },
  access: "bearer",
  scope: "organizations:read",
};

export const listOrganizationsInput = z.object(paginationInput(["created_at", "-created_at", "name", "-name"] as const, "created_at"));

export const listOrganizationsOutput = listEnvelope(organizationSchema);
