import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { procedureDefinitions } from "@/server/api/trpc-internals";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { createDashboardCaller, dashboardRouter } from "@/server/api/dashboard/root";
import { toAppError } from "@/server/api/to-app-error";
import { useTestDatabase } from "@/test/db";

const database = useTestDatabase();

type Call = (input: unknown) => Promise<unknown>;

/** A procedure of the caller by its dotted path (`sources.board`). */
function procedureOf(caller: unknown, path: string): Call {
  let target = caller as Record<string, unknown>;
  for (const segment of path.split(".")) target = target[segment] as Record<string, unknown>;
  return target as unknown as Call;
}

async function refusal(call: Promise<unknown>): Promise<{ status: number; message: string } | "accepted"> {
  try {
    await call;
    return "accepted";
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    return { status: getHTTPStatusCodeFromError(error), message: error.message };
  }
}

describe("dashboard inputs Postgres cannot store", () => {
  it("leaves input that is not JSON where it was: a procedure without input still answers the session check first", async () => {
    const answer = await fetchRequestHandler({
      endpoint: "/api/trpc",
      req: new Request("http://dash.test/api/trpc/viewer.me?input=undefined"),
      router: dashboardRouter,
      createContext: () => ({ db: database.prisma, requestId: "req_not_json", sessionUserId: null }),
    });
    expect(answer.status).toBe(401);
  });

  it("a NUL in a filter is a 400 naming the field, where each of these was a 500 from the failed statement", async () => {
    const owner = await database.prisma.user.create({ data: { email: `owner-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
    const caller = createDashboardCaller({ db: database.prisma, requestId: "req_test", sessionUserId: owner.id });
    const cases: [string, unknown][] = [
      ["sources.board", { organizationId: "a\u0000b", sort: "since" }],
      ["organizations.get", { organizationId: "a\u0000b" }],
      ["organizations.grid", { search: "a\u0000b" }],
      ["audit.list", { organizationId: "a\u0000b" }],
    ];
    for (const [path, input] of cases) {
      const field = Object.keys(input as object)[0];
      expect(await refusal(procedureOf(caller, path)(input)), path).toEqual({
        status: 400,
        message: `Invalid request. ${field}: must not contain the NUL character (U+0000)`,
      });
    }
    // An unpaired surrogate cannot be stored either; a clean search still answers.
    expect(await refusal(procedureOf(caller, "organizations.grid")({ search: "x\ud800" }))).toMatchObject({ status: 400 });
    expect(await refusal(procedureOf(caller, "organizations.grid")({ search: "a" }))).toBe("accepted");
  });

  it("a time before year 1 (which ISO 8601 spells, timestamptz cannot hold) is a 400 naming the field, not a 500", async () => {
    const owner = await database.prisma.user.create({ data: { email: `owner-${Math.random()}@x.test`, passwordHash: "x", isInstanceOwner: true } });
    const caller = createDashboardCaller({ db: database.prisma, requestId: "req_test", sessionUserId: owner.id });
    const yearZero = "0000-06-01T00:00:00Z";
    const cases: [string, string, unknown][] = [
      ["audit.list", "from", { from: yearZero }],
      ["audit.list", "to", { to: yearZero }],
      ["usage.keyRequests", "from", { organizationId: null, keyId: "key", from: yearZero }],
      ["sources.activity", "since", { organizationId: "org", sourceId: "source", since: yearZero }],
    ];
    for (const [path, field, input] of cases) {
      const error = await procedureOf(
        caller,
        path,
      )(input).then(
        () => "accepted",
        (thrown: unknown) => thrown,
      );
      expect(error, path).toBeInstanceOf(TRPCError);
      // What the wire carries: the error formatter's AppError (trpc.ts).
      expect(toAppError(error), path).toMatchObject({ code: "bad_request", message: `Invalid request. ${field}: must be a time from year 1 on` });
    }
    expect(await refusal(procedureOf(caller, "audit.list")({ from: "0001-01-01T00:00:00Z" }))).toBe("accepted");
  });

  it("every procedure of the router refuses it before anything else runs, the session check included", async () => {
    const paths = procedureDefinitions(dashboardRouter).map(([path]) => path);
    expect(paths.length).toBeGreaterThan(30);
    const anonymous = createDashboardCaller({ db: database.prisma, requestId: "req_test", sessionUserId: null });
    for (const path of paths) {
      expect(await refusal(procedureOf(anonymous, path)({ probe: ["ok", { "k\u0000": 1 }] })), path).toEqual({
        status: 400,
        message: "Invalid request. probe.1.k\\u0000: must not contain the NUL character (U+0000)",
      });
    }
  });
});
