import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { listDeliveries } from "@/server/modules/alerts/deliveries";
import { alertPrincipal } from "@/server/modules/access/alert-access";
import { toDeliveryDto } from "./alert.types";
import { listDeliveriesInput, listDeliveriesOutput } from "./list-deliveries.types";

/** The deliveries of a scope's channels, newest first, paged by cursor. */
export const listDeliveriesProcedure = sessionProcedure
  .input(listDeliveriesInput)
  .output(listDeliveriesOutput)
  .query(async ({ ctx, input }) => {
    const page = await listDeliveries(
      ctx.db,
      alertPrincipal(ctx.viewer, input.organizationId, "read"),
      input.organizationId,
      { cursor: input.cursor },
      {
        // The relay's address and answer are the operator's business (D376).
        showDetail: ctx.viewer.isInstanceOwner,
      },
    );
    return { items: page.items.map(toDeliveryDto), nextCursor: page.meta.next_cursor };
  });
