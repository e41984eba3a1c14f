import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { deleteChannel } from "@/server/modules/alerts/channels";
import { alertPrincipal, channelScope } from "@/server/modules/access/alert-access";
import { toChannelDto } from "./alert.types";
import { deleteChannelInput, deleteChannelOutput } from "./delete-channel.types";

/** Soft delete: its rules go with it, its deliveries stay listed. */
export const deleteChannelProcedure = sessionProcedure
  .input(deleteChannelInput)
  .output(deleteChannelOutput)
  .mutation(async ({ ctx, input }) => {
    const organizationId = await channelScope(ctx.db, ctx.viewer, input.channelId);
    return toChannelDto(await deleteChannel(ctx.db, alertPrincipal(ctx.viewer, organizationId, "manage"), input.channelId));
  });
