import { afterEach, describe, expect, it, vi } from "vitest";
import { resetEnvCache } from "@/env";
import { closeRequestLogWriter, requestLogWriter } from "./request-log-writer";

afterEach(async () => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  resetEnvCache();
  await closeRequestLogWriter();
});

describe("the process's request log writer", () => {
  it("turns a failed maintenance run (no database URL) into a warning, not an exception from its timer", async () => {
    vi.stubEnv("DATABASE_URL", "");
    vi.stubEnv("GROUNDWORK_REQUEST_LOG", "on");
    resetEnvCache();
    vi.useFakeTimers();
    expect(requestLogWriter()).not.toBeNull();
    // The first maintenance run is 10 s after start; it threw from the timer before.
    expect(() => vi.advanceTimersByTime(10_000)).not.toThrow();
    await vi.runOnlyPendingTimersAsync();
  });
});
