import { sessionProcedure } from "@/server/api/dashboard/trpc";
import { getDeletionReview } from "@/server/modules/data-sources/deletion-review";
import { iso, isoOrNull } from "../iso";
import { sourcePrincipal } from "@/server/modules/access/source-access";
import { deletionReviewInput, deletionReviewOutput } from "./deletion-review.types";

/** The rows the guardrail held back (count and sample, D103), read before approving. */
export const deletionReviewProcedure = sessionProcedure
  .input(deletionReviewInput)
  .output(deletionReviewOutput)
  .query(async ({ ctx, input }) => {
    const review = await getDeletionReview(ctx.db, sourcePrincipal(ctx.viewer, input.organizationId, "read"), input.sourceId, 20);
    return {
      declined: review.declined,
      approvedAt: isoOrNull(review.approvedAt),
      passFinishedAt: isoOrNull(review.passFinishedAt),
      sample: review.sample.map((row) => ({ externalId: row.externalId, data: row.data, updatedAt: iso(row.updatedAt) })),
    };
  });
