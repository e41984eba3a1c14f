import { z } from "zod";
import { scopeInput } from "./alert.types";

/** The domain validates the values (recipients, URL policy) and answers bad_request with the reason. */
export const createChannelInput = z.discriminatedUnion("kind", [
  scopeInput.extend({ kind: z.literal("email"), name: z.string().max(200), to: z.array(z.string().max(320)).max(20) }),
  scopeInput.extend({ kind: z.literal("chat_url"), name: z.string().max(200), url: z.string().max(2000) }),
]);
export { channelSchema as createChannelOutput } from "./alert.types";
