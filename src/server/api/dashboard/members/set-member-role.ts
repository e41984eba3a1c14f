import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { requireOrganizationAdmin } from "@/server/modules/access/viewer";
import { setMemberRole } from "@/server/modules/memberships/members";
import { setMemberRoleInput, setMemberRoleOutput } from "./set-member-role.types";

export const setMemberRoleProcedure = sessionProcedure
  .input(setMemberRoleInput)
  .output(setMemberRoleOutput)
  .mutation(async ({ ctx, input }) => {
    requireOrganizationAdmin(ctx.viewer, input.organizationId);
    await setMemberRole(ctx.db, input.organizationId, input.userId, input.role, { userId: ctx.viewer.userId });
    return { ok: true as const };
  });
