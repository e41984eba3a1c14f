import { z } from "zod";
import type { Member } from "@/server/modules/memberships/members";
import { iso, isoString } from "../iso";

export const roleSchema = z.enum(["admin", "member"]);
export const memberSchema = z.object({ userId: z.string(), email: z.string(), name: z.string().nullable(), role: roleSchema, since: isoString });
export const toMemberDto = (m: Member): z.infer<typeof memberSchema> => ({ ...m, since: iso(m.since) });
export const memberTargetInput = z.object({ organizationId: z.string().min(1).max(200), userId: z.string().min(1).max(200) });
