import { z } from "zod";
import { channelSchema } from "./alert.types";

export { scopeInput as listChannelsInput } from "./alert.types";
export const listChannelsOutput = z.array(channelSchema);
