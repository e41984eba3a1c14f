import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { requireOrganizationRead } from "@/server/modules/access/viewer";
import { listMembers } from "@/server/modules/memberships/members";
import { toMemberDto } from "./member.types";
import { listMembersInput, listMembersOutput } from "./list-members.types";

export const listMembersProcedure = sessionProcedure
  .input(listMembersInput)
  .output(listMembersOutput)
  .query(async ({ ctx, input }) => {
    requireOrganizationRead(ctx.viewer, input.organizationId);
    return (await listMembers(ctx.db, input.organizationId)).map(toMemberDto);
  });
