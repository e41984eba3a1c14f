import { z } from "zod";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";

export const formNameSchema = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");

export async function createForm(db: Db, organizationId: string, name: string): Promise<{ id: string; name: string }> {
  const parsed = formNameSchema.safeParse(name);
  if (!parsed.success) throw new AppError("bad_request", `Invalid name: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  const organization = await db.organization.findUnique({ where: { id: organizationId }, select: { id: true } });
  if (!organization) throw new AppError("not_found", `No organization ${organizationId}.`);
  return db.form.create({
    data: { organizationId, name: parsed.data },
    select: { id: true, name: true },
  });
}
