import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { describe, expect, it } from "vitest";
import { toAppError } from "@/server/api/to-app-error";
import { AppError, appErrorCodes } from "./app-error";
import { errorCodeTable } from "./http-status";

describe("the one error table", () => {
  it("names, for every code, the HTTP status tRPC itself derives from the tRPC code", () => {
    for (const code of appErrorCodes) {
      const row = errorCodeTable[code];
      expect(getHTTPStatusCodeFromError(new TRPCError({ code: row.trpc })), code).toBe(row.status);
    }
  });

  it("reads back: an AppError thrown through tRPC keeps its code, and a bare tRPC code maps to ours", () => {
    for (const code of appErrorCodes) {
      const thrown = new AppError(code, "x");
      expect(toAppError(new TRPCError({ code: errorCodeTable[code].trpc, cause: thrown }))).toBe(thrown);
      expect(toAppError(new TRPCError({ code: errorCodeTable[code].trpc })).code).toBe(code);
    }
  });
});
