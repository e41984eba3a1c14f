import { z } from "zod";
import { sourceInput, organizationInput } from "./source.types";
import { testConnectionOutput } from "./test-connection.types";

/** Only the shapes here: the domain judges the fields and answers a bad one as { ok: false, reason }. */
export const discoverSourceInput = organizationInput.extend({
  credentials: z.record(z.string(), z.unknown()),
  table: z.string().max(400).nullish(),
  keyColumn: z.string().max(63).nullish(),
});
export const discoverSavedSourceInput = sourceInput.extend({ connection: z.record(z.string(), z.unknown()).optional() });

export const discoverSourceOutput = z.discriminatedUnion("ok", [
  z.object({
    ok: z.literal(true),
    tables: z.array(z.object({ name: z.string(), kind: z.string() })),
    truncated: z.boolean(),
    columns: z.array(z.object({ name: z.string(), type: z.string(), nullable: z.boolean(), primaryKey: z.boolean(), unique: z.boolean() })).nullable(),
    suggestedKey: z.string().nullable(),
    check: testConnectionOutput.nullable(),
  }),
  z.object({ ok: z.literal(false), reason: z.string() }),
]);
export type DiscoverSourceDto = z.infer<typeof discoverSourceOutput>;
