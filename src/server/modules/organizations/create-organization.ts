import { z } from "zod";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";

export const organizationNameSchema = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");

export interface OrganizationSummary {
  id: string;
  name: string;
  createdAt: Date;
}

export async function createOrganization(db: Db, name: string): Promise<OrganizationSummary> {
  const parsed = organizationNameSchema.safeParse(name);
  if (!parsed.success) throw new AppError("bad_request", `Invalid name: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  return db.organization.create({
    data: { name: parsed.data },
    select: { id: true, name: true, createdAt: true },
  });
}
