import { z } from "zod";
import { memberTargetInput, roleSchema } from "./member.types";

export const setMemberRoleInput = memberTargetInput.extend({ role: roleSchema });
export const setMemberRoleOutput = z.object({ ok: z.literal(true) });
