import { z } from "zod";
import { organizationOverviewSchema } from "./organization.types";

export const listOrganizationsOutput = z.array(organizationOverviewSchema);
