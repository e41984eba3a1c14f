import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { createChannel } from "@/server/modules/alerts/channels";
import { operatorTargetPolicy } from "@/server/modules/outbound/target-policy";
import { dashboardSecrets } from "@/server/api/dashboard/sources/dashboard-secrets";
import { alertPrincipal } from "@/server/modules/access/alert-access";
import { toChannelDto } from "./alert.types";
import { createChannelInput, createChannelOutput } from "./create-channel.types";

export const createChannelProcedure = sessionProcedure
  .input(createChannelInput)
  .output(createChannelOutput)
  .mutation(async ({ ctx, input }) => {
    const principal = alertPrincipal(ctx.viewer, input.organizationId, "manage");
    return toChannelDto(await createChannel(ctx.db, { secrets: await dashboardSecrets(), policy: operatorTargetPolicy() }, principal, input));
  });
