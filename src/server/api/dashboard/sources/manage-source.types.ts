import { z } from "zod";
import { isoString } from "../iso";
import { sourceInput } from "./source.types";
import { captureModeSchema } from "./test-connection.types";

/** The edit form: every field optional (left out = unchanged); secrets write-only (blank = keep). */
export const editSourceInput = sourceInput.extend({
  name: z.string().max(200).optional(),
  syncIntervalSeconds: z.number().int().nullable().optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  connection: z.record(z.string(), z.unknown()).optional(),
  captureMode: captureModeSchema.optional(),
});
export const editSourceOutput = z.object({ id: z.string(), changed: z.array(z.string()) });

export const pauseSourceInput = sourceInput;
export const pauseSourceOutput = z.object({ pausedAt: isoString });
export const resumeSourceInput = sourceInput;
export const resumeSourceOutput = z.object({ resumedAt: isoString, passQueued: z.boolean(), scheduled: z.boolean() });
export const resyncSourceInput = sourceInput;
export const resyncSourceOutput = z.object({ requestedAt: isoString });

export const deleteSourceInput = sourceInput.extend({ confirmName: z.string().max(400) });
export const deleteSourceOutput = z.object({ id: z.string(), name: z.string(), kind: z.string(), liveRows: z.number().int(), tombstones: z.number().int() });

/** What the edit form shows of the stored connection: never a password or client secret. */
export const sourceConnectionInput = sourceInput;
export const sourceConnectionOutput = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("postgres_table"),
    host: z.string(),
    port: z.number().int(),
    database: z.string(),
    user: z.string(),
    sslmode: z.string().nullable(),
    hasPassword: z.boolean(),
  }),
  z.object({ kind: z.literal("crm_object"), instanceUrl: z.string(), clientId: z.string() }),
  z.object({ kind: z.literal("csv") }),
  z.object({ kind: z.literal("unreadable"), reason: z.string() }),
]);
