import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { requireOrganizationAdmin } from "@/server/modules/access/viewer";
import { removeMember } from "@/server/modules/memberships/members";
import { removeMemberInput, removeMemberOutput } from "./remove-member.types";

/** Takes effect on the removed user's next request: their roles are read per request. */
export const removeMemberProcedure = sessionProcedure
  .input(removeMemberInput)
  .output(removeMemberOutput)
  .mutation(async ({ ctx, input }) => {
    requireOrganizationAdmin(ctx.viewer, input.organizationId);
    await removeMember(ctx.db, input.organizationId, input.userId, { userId: ctx.viewer.userId });
    return { ok: true as const };
  });
