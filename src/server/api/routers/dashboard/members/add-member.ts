import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { requireOrganizationAdmin } from "@/server/modules/access/viewer";
import { addMember } from "@/server/modules/memberships/members";
import { toMemberDto } from "./member.types";
import { addMemberInput, addMemberOutput } from "./add-member.types";

export const addMemberProcedure = sessionProcedure
  .input(addMemberInput)
  .output(addMemberOutput)
  .mutation(async ({ ctx, input }) => {
    requireOrganizationAdmin(ctx.viewer, input.organizationId);
    const member = await addMember(ctx.db, input.organizationId, { email: input.email, role: input.role }, { userId: ctx.viewer.userId });
    return toMemberDto(member);
  });
