import { describe, expect, it } from "vitest";
import { z } from "zod";
import { initTRPC } from "@trpc/server";
import type { ApiContext } from "@/server/api/v1/context";
import type { ApiMeta } from "@/server/api/v1/meta";
import { outputContract } from "@/server/api/v1/output-contract";
import { appRouter } from "@/server/api/v1/root";
import { toAppError } from "@/server/api/to-app-error";
import { apiProcedure, baseProcedure, createRouter, middleware } from "@/server/api/v1/trpc";
import { AppError } from "@/server/errors/app-error";
import type { ApiKeyPrincipal } from "@/server/modules/api-keys/principal";
import { createProcedureCaller } from "./call-procedure";
import { listApiRoutes } from "./routes";

const meta: ApiMeta = { openapi: { method: "GET", path: "/organizations/{org}/echo" }, access: "bearer", scope: "records:read", orgParam: "org" };
const input = z.object({ org: z.string(), n: z.string().regex(/^\d+$/, "must be digits") });
const output = z.object({ n: z.number(), key: z.string() });

const router = createRouter({
  echo: apiProcedure
    .meta(meta)
    .input(input)
    .output(outputContract(output))
    .query(({ ctx, input: given }) => {
      if (given.n === "13") throw new AppError("conflict", "Thirteen is taken.");
      // "99" answers off-contract: the output check must catch it on both paths.
      return { n: given.n === "99" ? ("99" as unknown as number) : Number(given.n), key: ctx.principal!.keyId };
    }),
});
const route = listApiRoutes(router)[0]!;
const principal: ApiKeyPrincipal = {
  keyId: "key_1",
  prefix: "gw_live_ab",
  scopes: ["records:read"],
  organizationId: "org_1",
  rateLimit: 100,
  rateLimitWindowSeconds: 60,
} as ApiKeyPrincipal;

function context(who: ApiKeyPrincipal | undefined): ApiContext {
  return {
    requestId: "req_1",
    req: { method: "GET", pathname: "/api/v1/organizations/org_1/echo", headers: { get: () => null } },
    rawBody: { bytes: Buffer.alloc(0), json: undefined } as never,
    db: {} as never,
    rateLimiter: {} as never,
    response: { headers: {} },
    principal: who,
  };
}

/** The answer, or the AppError the pipeline would turn the failure into. */
async function settle(call: () => Promise<unknown>): Promise<unknown> {
  try {
    return { data: await call() };
  } catch (error) {
    const appError = toAppError(error);
    return { code: appError.code, message: appError.message, details: appError.details };
  }
}

const direct = (who: ApiKeyPrincipal | undefined, org: string, n: string) =>
  settle(() => createProcedureCaller(router)(route, { org }, new URL(`http://x/api/v1/organizations/${org}/echo?n=${n}`), {}, context(who)));
const viaTrpc = (who: ApiKeyPrincipal | undefined, org: string, n: string) =>
  settle(() => initTRPC.context<ApiContext>().create().createCallerFactory(router)(context(who)).echo({ org, n }));

describe("createProcedureCaller", () => {
  const cases: Array<[string, ApiKeyPrincipal | undefined, string, string]> = [
    ["an answer", principal, "org_1", "42"],
    ["no key: 401", undefined, "org_1", "42"],
    ["a key without the scope: 403", { ...principal, scopes: ["organizations:read"] }, "org_1", "42"],
    ["another organization: 403, before the input is read", principal, "org_2", "not digits"],
    ["invalid input: 400 naming the field", principal, "org_1", "4x"],
    ["a resolver's AppError", principal, "org_1", "13"],
    ["an answer off its output contract: 500", principal, "org_1", "99"],
  ];
  it.each(cases)("settles as tRPC's own caller does: %s", async (_, who, org, n) => {
    const [ours, theirs] = [await direct(who, org, n), await viaTrpc(who, org, n)];
    expect(ours).toEqual(theirs);
  });

  it("gives the expected answers, not just the same ones", async () => {
    expect(await direct(principal, "org_1", "42")).toEqual({ data: { n: 42, key: "key_1" } });
    expect(await direct(principal, "org_1", "4x")).toMatchObject({ code: "bad_request", message: "Invalid request. n: must be digits" });
    expect(await direct(principal, "org_2", "4x")).toMatchObject({ code: "forbidden" });
    expect(await direct(principal, "org_1", "99")).toMatchObject({ code: "internal_error" });
  });

  it("calls every /api/v1 procedure directly", () => {
    // A procedure of the real router that adds a middleware fails here, naming it (trpc-internals.ts).
    expect(() => createProcedureCaller(appRouter)).not.toThrow();
  });

  it("refuses at start a procedure with a middleware of its own, naming the procedure and where a check belongs", () => {
    const ownCheck = middleware(({ next }) => next());
    const withOwn = createRouter({
      things: createRouter({
        list: apiProcedure
          .use(ownCheck)
          .meta(meta)
          .input(input)
          .query(() => ({})),
      }),
    });
    expect(() => createProcedureCaller(withOwn)).toThrow(
      "/api/v1 procedure things.list adds a middleware the pipeline does not know (after apiProcedure's access chain). " +
        "The pipeline runs each procedure's definition itself (D353 in docs/decisions.md), so it runs only the levels it knows: " +
        "a check every call needs is a step of the one access chain (src/server/api/v1/access-chain.ts), which the pipeline and every tRPC caller run.",
    );
    const afterInput = createRouter({
      echo: apiProcedure
        .meta(meta)
        .input(input)
        .use(ownCheck)
        .query(() => ({})),
    });
    expect(() => createProcedureCaller(afterInput)).toThrow(
      /^\/api\/v1 procedure echo adds a middleware the pipeline does not know \(after apiProcedure's access chain, input\)\./,
    );
  });

  it("refuses at start two inputs, or a procedure neither public nor built on apiProcedure", () => {
    const bare = createRouter({
      echo: baseProcedure
        .meta(meta)
        .input(input)
        .query(() => ({})),
    });
    expect(() => createProcedureCaller(bare)).toThrow(/^\/api\/v1 procedure echo is not built on apiProcedure and is not public: it would serve anyone\./);
    const twoInputs = createRouter({
      echo: apiProcedure
        .meta(meta)
        .input(input)
        .input(z.object({ m: z.string() }))
        .query(() => ({})),
    });
    expect(() => createProcedureCaller(twoInputs)).toThrow(/^\/api\/v1 procedure echo declares 2 inputs; the pipeline passes one\./);
    const open = createRouter({
      echo: baseProcedure
        .meta({ ...meta, access: "public" })
        .input(input)
        .query(() => ({})),
    });
    expect(() => createProcedureCaller(open)).not.toThrow();
  });
});
