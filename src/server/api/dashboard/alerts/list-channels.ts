import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { listChannels } from "@/server/modules/alerts/channels";
import { alertPrincipal } from "@/server/modules/access/alert-access";
import { toChannelDto } from "./alert.types";
import { listChannelsInput, listChannelsOutput } from "./list-channels.types";

/** The live channels of an organization, or of the instance (organizationId null). */
export const listChannelsProcedure = sessionProcedure
  .input(listChannelsInput)
  .output(listChannelsOutput)
  .query(async ({ ctx, input }) =>
    (await listChannels(ctx.db, alertPrincipal(ctx.viewer, input.organizationId, "read"), input.organizationId)).map(toChannelDto),
  );
