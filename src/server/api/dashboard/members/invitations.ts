import { z } from "zod";
import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { requireOrganizationAdmin } from "@/server/modules/access/viewer";
import { cancelInvitation, listInvitations } from "@/server/modules/memberships/invitations";
import { iso } from "../iso";
import { invitationSchema } from "./add-member.types";

const organizationInput = z.object({ organizationId: z.string().min(1).max(200) });

/** The organization's pending invitations, for its admins and instance owners. */
export const listInvitationsProcedure = sessionProcedure
  .input(organizationInput)
  .output(z.array(invitationSchema))
  .query(async ({ ctx, input }) => {
    requireOrganizationAdmin(ctx.viewer, input.organizationId);
    return (await listInvitations(ctx.db, input.organizationId)).map((i) => ({ id: i.id, email: i.email, role: i.role, createdAt: iso(i.createdAt) }));
  });

export const cancelInvitationProcedure = sessionProcedure
  .input(organizationInput.extend({ invitationId: z.string().min(1).max(200) }))
  .output(z.object({ ok: z.literal(true) }))
  .mutation(async ({ ctx, input }) => {
    requireOrganizationAdmin(ctx.viewer, input.organizationId);
    await cancelInvitation(ctx.db, input.organizationId, input.invitationId, { userId: ctx.viewer.userId });
    return { ok: true as const };
  });
