import { z } from "zod";
import { deliverySchema, scopeInput } from "./alert.types";

export const listDeliveriesInput = scopeInput.extend({ cursor: z.string().min(1).max(2000).optional() });
export const listDeliveriesOutput = z.object({ items: z.array(deliverySchema), nextCursor: z.string().nullable() });
