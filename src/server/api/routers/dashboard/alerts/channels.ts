import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { alertBaseUrl } from "@/server/modules/alerts/alert-queue";
import type { Db } from "@/server/db/types";
import { AppError } from "@/server/errors/app-error";
import { canReadOrganization, type Viewer } from "@/server/modules/access/viewer";
import { createChannel, deleteChannel, listChannels } from "@/server/modules/alerts/channels";
import { sendTestMessage } from "@/server/modules/alerts/deliveries";
import { operatorTargetPolicy } from "@/server/modules/data-sources/connectors/targets/target-policy";
import { z } from "zod";
import { dashboardSecrets } from "../sources/source-access";
import { alertPrincipal } from "./alert-access";
import { channelIdInput, channelSchema, createChannelInput, scopeInput, testChannelOutput, toChannelDto } from "./alerts.types";

/** The live channels of an organization, or of the instance (organizationId null). */
export const listChannelsProcedure = sessionProcedure
  .input(scopeInput)
  .output(z.array(channelSchema))
  .query(async ({ ctx, input }) => (await listChannels(ctx.db, alertPrincipal(ctx.viewer, input.organizationId, "read"), input.organizationId)).map(toChannelDto));

export const createChannelProcedure = sessionProcedure
  .input(createChannelInput)
  .output(channelSchema)
  .mutation(async ({ ctx, input }) => {
    const principal = alertPrincipal(ctx.viewer, input.organizationId, "manage");
    return toChannelDto(await createChannel(ctx.db, { secrets: await dashboardSecrets(), policy: operatorTargetPolicy() }, principal, input));
  });

/**
 * The organization a channel belongs to (null: the instance's), or not_found when the viewer
 * cannot even read its scope: another tenant's channel id reads as absent.
 */
async function channelScope(ctx: { db: Db; viewer: Viewer }, channelId: string): Promise<string | null> {
  const channel = await ctx.db.alertChannel.findFirst({ where: { id: channelId, deletedAt: null }, select: { organizationId: true } });
  const readable = channel && (channel.organizationId === null ? ctx.viewer.isInstanceOwner || ctx.viewer.isSupport : canReadOrganization(ctx.viewer, channel.organizationId));
  if (!channel || !readable) throw new AppError("not_found", `No alert channel ${channelId}.`);
  return channel.organizationId;
}

export const deleteChannelProcedure = sessionProcedure
  .input(channelIdInput)
  .output(channelSchema)
  .mutation(async ({ ctx, input }) => {
    const organizationId = await channelScope(ctx, input.channelId);
    return toChannelDto(await deleteChannel(ctx.db, alertPrincipal(ctx.viewer, organizationId, "manage"), input.channelId));
  });

/** "Send test": queues a test message; the deliveries list shows whether it went out. */
export const testChannelProcedure = sessionProcedure
  .input(channelIdInput)
  .output(testChannelOutput)
  .mutation(async ({ ctx, input }) => {
    const organizationId = await channelScope(ctx, input.channelId);
    return sendTestMessage(ctx.db, alertPrincipal(ctx.viewer, organizationId, "manage"), input.channelId, alertBaseUrl());
  });
