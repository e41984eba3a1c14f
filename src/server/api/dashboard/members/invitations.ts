import { z } from "zod";
import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { requireOrganizationAdmin } from "@/server/modules/access/viewer";
import { invitationDeliveryFromEnv } from "@/server/modules/memberships/delivery-from-env";
import { cancelInvitation, listInvitations, resendInvitation } from "@/server/modules/memberships/invitations";
import { DEFAULT_LIMIT, MAX_LIMIT } from "@/server/modules/pagination/page";
import { deliverySchema, invitationSchema, toInvitationDto } from "./add-member.types";

const organizationInput = z.object({ organizationId: z.string().min(1).max(200) });
const invitationInput = organizationInput.extend({ invitationId: z.string().min(1).max(200) });

/** The organization's pending invitations by email, paged by cursor, for its admins and instance owners. */
export const listInvitationsProcedure = sessionProcedure
  .input(organizationInput.extend({ cursor: z.string().max(2000).optional(), limit: z.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT) }))
  .output(z.object({ items: z.array(invitationSchema), meta: z.object({ next_cursor: z.string().nullable(), limit: z.number() }) }))
  .query(async ({ ctx, input }) => {
    requireOrganizationAdmin(ctx.viewer, input.organizationId);
    const page = await listInvitations(ctx.db, input.organizationId, { limit: input.limit, cursor: input.cursor });
    return { items: page.items.map(toInvitationDto), meta: page.meta };
  });

/** A fresh link (the old one stops working), mailed or shown once, as on inviting (D471). */
export const resendInvitationProcedure = sessionProcedure
  .input(invitationInput)
  .output(z.object({ invitation: invitationSchema, delivery: deliverySchema }))
  .mutation(async ({ ctx, input }) => {
    requireOrganizationAdmin(ctx.viewer, input.organizationId);
    const issued = await resendInvitation(ctx.db, input.organizationId, input.invitationId, { userId: ctx.viewer.userId }, invitationDeliveryFromEnv());
    return { invitation: toInvitationDto(issued.invitation), delivery: issued.delivery };
  });

/** Revokes the invitation: its link stops working at once. */
export const cancelInvitationProcedure = sessionProcedure
  .input(invitationInput)
  .output(z.object({ ok: z.literal(true) }))
  .mutation(async ({ ctx, input }) => {
    requireOrganizationAdmin(ctx.viewer, input.organizationId);
    await cancelInvitation(ctx.db, input.organizationId, input.invitationId, { userId: ctx.viewer.userId });
    return { ok: true as const };
  });
