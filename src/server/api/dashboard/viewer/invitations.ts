import { z } from "zod";
import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { acceptInvitation, declineInvitation, invitationsFor } from "@/server/modules/memberships/invitations";
import { iso, isoString } from "../iso";

const invitationInput = z.object({ invitationId: z.string().min(1).max(200) });

/** Invitations waiting for the signed-in person (D181); never any for owners and support. */
export const myInvitationsProcedure = sessionProcedure
  .output(
    z.array(z.object({ id: z.string(), organizationId: z.string(), organizationName: z.string(), role: z.enum(["admin", "member"]), createdAt: isoString })),
  )
  .query(async ({ ctx }) =>
    (await invitationsFor(ctx.db, ctx.viewer)).map((i) => ({
      id: i.id,
      organizationId: i.organizationId,
      organizationName: i.organizationName,
      role: i.role,
      createdAt: iso(i.createdAt),
    })),
  );

export const acceptInvitationProcedure = sessionProcedure
  .input(invitationInput)
  .output(z.object({ organizationId: z.string() }))
  .mutation(({ ctx, input }) => acceptInvitation(ctx.db, ctx.viewer, input.invitationId));

export const declineInvitationProcedure = sessionProcedure
  .input(invitationInput)
  .output(z.object({ ok: z.literal(true) }))
  .mutation(async ({ ctx, input }) => {
    await declineInvitation(ctx.db, ctx.viewer, input.invitationId);
    return { ok: true as const };
  });
