import { TRPCError } from "@trpc/server";
import { redirect } from "next/navigation";
import { isAppError } from "@/server/errors/app-error";
import { serverComponentContext } from "./caller";
import { createDashboardCaller } from "./root";

type Caller = ReturnType<typeof createDashboardCaller>;

export type Loaded<T> = { ok: true; data: T } | { ok: false; code: string; message: string; requestId: string };

/**
 * A page's data through the caller. A lost session goes to sign-in; any other refusal or
 * failure comes back as a value the page shows (message + request id), never a blank page.
 */
export async function load<T>(fn: (caller: Caller) => Promise<T>): Promise<Loaded<T>> {
  const context = await serverComponentContext();
  const caller = createDashboardCaller(context);
  const requestId = context.requestId;
  let unauthorized = false;
  try {
    return { ok: true, data: await fn(caller) };
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    if (error.code === "UNAUTHORIZED") unauthorized = true;
    else {
      const cause = isAppError(error.cause) ? error.cause : null;
      return {
        ok: false,
        code: cause?.code ?? "internal_error",
        message: cause?.message ?? "Something went wrong on our side.",
        requestId,
      };
    }
  }
  if (unauthorized) redirect("/sign-in");
  throw new Error("unreachable");
}

/** A part of a page some roles may not see (a member and a key's request log): null for them. */
export async function unlessForbidden<T>(promise: Promise<T>): Promise<T | null> {
  try {
    return await promise;
  } catch (error) {
    if (error instanceof TRPCError && error.code === "FORBIDDEN") return null;
    throw error;
  }
}
