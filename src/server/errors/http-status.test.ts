import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { describe, expect, it } from "vitest";
import { toAppError } from "@/server/api/to-app-error";
import { AppError, appErrorCodes } from "./app-error";
import { errorCodeTable, trpcCodeFor } from "./http-status";

describe("the one error table", () => {
  it("names, for every code tRPC has, the HTTP status tRPC itself derives from the tRPC code", () => {
    for (const code of appErrorCodes) {
      const row = errorCodeTable[code];
      if (row.trpc !== null) expect(getHTTPStatusCodeFromError(new TRPCError({ code: row.trpc })), code).toBe(row.status);
    }
  });

  it("has its own code for each refusal of the edge (D542), and no tRPC code only for the three tRPC lacks", () => {
    const edge = [408, 411, 417, 431].map((status) => appErrorCodes.find((code) => errorCodeTable[code].status === status));
    expect(edge).toEqual(["request_timeout", "length_required", "expectation_failed", "headers_too_large"]);
    expect(appErrorCodes.filter((code) => errorCodeTable[code].trpc === null)).toEqual(["length_required", "expectation_failed", "headers_too_large"]);
    expect(new Set(appErrorCodes.map((code) => errorCodeTable[code].status)).size).toBe(appErrorCodes.length);
  });

  it("reads back: an AppError thrown through tRPC keeps its code, and a bare tRPC code maps to ours", () => {
    for (const code of appErrorCodes.filter((each) => errorCodeTable[each].trpc !== null)) {
      const thrown = new AppError(code, "x");
      expect(toAppError(new TRPCError({ code: trpcCodeFor(code), cause: thrown }))).toBe(thrown);
      expect(toAppError(new TRPCError({ code: trpcCodeFor(code) })).code).toBe(code);
    }
  });
});
