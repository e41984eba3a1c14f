import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { deleteChannel } from "@/server/modules/alerts/channels";
import { alertPrincipal, channelScope } from "@/server/modules/access/alert-access";
// Its contract is the shared channel shapes of alert.types.ts: an id in, the channel out.
import { channelIdInput, channelSchema, toChannelDto } from "./alert.types";

/** Soft delete: its rules go with it, its deliveries stay listed. */
export const deleteChannelProcedure = sessionProcedure
  .input(channelIdInput)
  .output(channelSchema)
  .mutation(async ({ ctx, input }) => {
    const organizationId = await channelScope(ctx.db, ctx.viewer, input.channelId);
    return toChannelDto(await deleteChannel(ctx.db, alertPrincipal(ctx.viewer, organizationId, "manage"), input.channelId));
  });
