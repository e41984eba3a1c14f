import { TRPCError } from "@trpc/server";

/** What a dashboard procedure call came to: "OK", or the tRPC code it was refused with. */
export async function outcomeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "OK";
  } catch (error) {
    return error instanceof TRPCError ? error.code : String(error);
  }
}
