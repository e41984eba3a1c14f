import { z } from "zod";
import type { Db } from "@/server/db/types";

export const organizationNameSchema = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");

export interface OrganizationSummary {
  id: string;
  name: string;
  createdAt: Date;
}

export async function createOrganization(db: Db, name: string): Promise<OrganizationSummary> {
  return db.organization.create({
    data: { name: organizationNameSchema.parse(name) },
    select: { id: true, name: true, createdAt: true },
  });
}
