import { z } from "zod";
import { organizationOverviewSchema } from "./organization.types";

export { organizationIdInput as getOrganizationInput } from "./organization.types";

export const getOrganizationOutput = z.object({
  organization: organizationOverviewSchema,
  /** What the viewer may change here; the procedures check again on every write. */
  canAdmin: z.boolean(),
  viewerRole: z.enum(["owner", "support", "admin", "member"]),
});
