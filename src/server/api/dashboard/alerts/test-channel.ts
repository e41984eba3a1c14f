import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { LINK_BASE } from "@/server/modules/alerts/alert-message";
import { sendTestMessage } from "@/server/modules/alerts/deliveries";
import { alertPrincipal, channelScope } from "@/server/modules/access/alert-access";
import { testChannelInput, testChannelOutput } from "./test-channel.types";

/** "Send test": queues a test message; the deliveries list shows whether it went out. */
export const testChannelProcedure = sessionProcedure
  .input(testChannelInput)
  .output(testChannelOutput)
  .mutation(async ({ ctx, input }) => {
    const organizationId = await channelScope(ctx.db, ctx.viewer, input.channelId);
    return sendTestMessage(ctx.db, alertPrincipal(ctx.viewer, organizationId, "manage"), input.channelId, LINK_BASE);
  });
