import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { getRequestDetail } from "@/server/modules/request-log/lookup";
import { logReachFor } from "@/server/modules/request-log/reach";
import { getRequestInput, getRequestOutput, toRequestDetailDto } from "./get-request.types";

/** One request by its id; outside the viewer's organizations it is "not found" (D197). */
export const getRequestProcedure = sessionProcedure
  .input(getRequestInput)
  .output(getRequestOutput)
  .query(async ({ ctx, input }) => toRequestDetailDto(await getRequestDetail(ctx.db, logReachFor(ctx.viewer), input.requestId)));
