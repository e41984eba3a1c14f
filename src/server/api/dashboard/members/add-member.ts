import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { requireOrganizationAdmin } from "@/server/modules/access/viewer";
import { inviteMember } from "@/server/modules/memberships/invitations";
import { addMember } from "@/server/modules/memberships/members";
import { invitationDeliveryFromEnv } from "@/server/modules/memberships/delivery-from-env";
import { toMemberDto } from "./member.types";
import { addMemberInput, addMemberOutput, toInvitationDto } from "./add-member.types";

/**
 * Instance owners (who see every account anyway) attach an existing account; an organization
 * admin's add is an invitation, answered alike whether the email has an account or not (D181).
 */
export const addMemberProcedure = sessionProcedure
  .input(addMemberInput)
  .output(addMemberOutput)
  .mutation(async ({ ctx, input }) => {
    requireOrganizationAdmin(ctx.viewer, input.organizationId);
    const actor = { userId: ctx.viewer.userId };
    if (ctx.viewer.isInstanceOwner) {
      const member = await addMember(ctx.db, input.organizationId, { email: input.email, role: input.role }, actor);
      return { kind: "added" as const, member: toMemberDto(member) };
    }
    const issued = await inviteMember(ctx.db, input.organizationId, { email: input.email, role: input.role }, actor, invitationDeliveryFromEnv());
    return { kind: "invited" as const, invitation: toInvitationDto(issued.invitation), delivery: issued.delivery };
  });
