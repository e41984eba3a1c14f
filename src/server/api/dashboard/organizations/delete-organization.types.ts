import { z } from "zod";

export const deleteOrganizationInput = z.object({
  organizationId: z.string().min(1).max(200),
  /** The organization's name typed by the owner: a guard against deleting the wrong one. */
  confirmName: z.string().max(200),
});
export const deleteOrganizationOutput = z.object({ id: z.string(), deleted: z.literal(true) });
