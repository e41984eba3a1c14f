import { z } from "zod";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";

export const formNameSchema = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");

export async function createForm(db: Db, organizationId: string, name: string): Promise<{ id: string; name: string }> {
  const organization = await db.organization.findUnique({ where: { id: organizationId }, select: { id: true } });
  if (!organization) throw new AppError("not_found", `No organization ${organizationId}.`);
  return db.form.create({
    data: { organizationId, name: formNameSchema.parse(name) },
    select: { id: true, name: true },
  });
}
