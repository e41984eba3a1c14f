import { z } from "zod";

export { memberTargetInput as removeMemberInput } from "./member.types";
export const removeMemberOutput = z.object({ ok: z.literal(true) });
