import { z } from "zod";

export { channelIdInput as testChannelInput } from "./alert.types";
export const testChannelOutput = z.object({ deliveryId: z.string(), queued: z.boolean() });
