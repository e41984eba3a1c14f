import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import type { DashboardRouter } from "@/server/api/dashboard/root";

/** The browser's client of the dashboard procedures (the same ones server components call). */
export const trpc = createTRPCClient<DashboardRouter>({ links: [httpLink({ url: "/api/trpc" })] });

export interface ShownError {
  message: string;
  requestId: string | null;
}

/** A failed call as the UI shows it: the domain's message and the request id. */
export function describeError(error: unknown): ShownError {
  if (error instanceof TRPCClientError) {
    const shape = error.shape as { message?: string; request_id?: string | null } | undefined;
    return { message: shape?.message ?? error.message, requestId: shape?.request_id ?? null };
  }
  return { message: "The server could not be reached. Check your connection and try again.", requestId: null };
}
