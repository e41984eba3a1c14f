import { z } from "zod";
import { memberSchema } from "./member.types";

export { organizationIdInput as listMembersInput } from "../organizations/organization.types";
export const listMembersOutput = z.array(memberSchema);
