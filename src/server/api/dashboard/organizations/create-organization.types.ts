import { z } from "zod";
import { organizationNameSchema } from "@/server/modules/organizations/create-organization";

export const createOrganizationInput = z.object({ name: organizationNameSchema });
export const createOrganizationOutput = z.object({ id: z.string(), name: z.string() });
