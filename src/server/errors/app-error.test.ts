import { describe, expect, it } from "vitest";
import { AppError, isAppError, refusal } from "./app-error";

describe("refusal", () => {
  it("is an AppError like any other, without stack frames, and leaves the stack limit as it was", () => {
    const limit = Error.stackTraceLimit;
    const refused = refusal("unauthorized", "Unknown API key.", { headers: { "WWW-Authenticate": "Bearer" } });
    expect(isAppError(refused)).toBe(true);
    expect(refused).toMatchObject({ code: "unauthorized", message: "Unknown API key.", headers: { "WWW-Authenticate": "Bearer" } });
    expect(refused.stack).toBe("AppError: Unknown API key.");
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new AppError("conflict", "Already exists.").stack).toMatch(/\n\s+at /);
  });
});
