import { z } from "zod";
import { envelope, ok } from "@/server/api/v1/response-envelope";
import { apiProcedure, baseProcedure, createRouter } from "@/server/api/v1/trpc";
import { AppError } from "@/server/errors/app-error";

/** A small router that exercises the pipeline without any domain behind it. */
export const echoRouter = createRouter({
  getThing: baseProcedure
    .meta({ openapi: { method: "GET", path: "/things/{id}" }, access: "public" })
    .input(z.object({ id: z.string(), limit: z.coerce.number().int().max(100).optional() }))
    .output(envelope(z.object({ id: z.string(), limit: z.number().nullable() })))
    .query(({ ctx, input }) => ok(ctx, { id: input.id, limit: input.limit ?? null })),
  createThing: baseProcedure
    .meta({ openapi: { method: "POST", path: "/things" }, access: "public", successStatus: 201 })
    .input(z.object({ name: z.string().min(1) }))
    .output(envelope(z.object({ name: z.string(), raw_bytes: z.number() })))
    .mutation(({ ctx, input }) => ok(ctx, { name: input.name, raw_bytes: ctx.rawBody.bytes.length })),
  failDomain: baseProcedure
    .meta({ openapi: { method: "POST", path: "/things/conflict" }, access: "public" })
    .input(z.object({}))
    .output(envelope(z.object({})))
    .mutation(() => {
      throw new AppError("conflict", "Already exists.", { details: { field: "name" } });
    }),
  crash: baseProcedure
    .meta({ openapi: { method: "GET", path: "/things/crash/now" }, access: "public" })
    .input(z.object({}))
    .output(envelope(z.object({})))
    .query(() => {
      throw new Error("secret internal detail at /srv/app.ts:12");
    }),
  createGuarded: apiProcedure
    .meta({ openapi: { method: "POST", path: "/guarded" }, access: "bearer", successStatus: 201 })
    .input(z.object({ name: z.string() }))
    .output(envelope(z.object({ name: z.string() })))
    .mutation(({ ctx, input }) => ok(ctx, { name: input.name })),
});
