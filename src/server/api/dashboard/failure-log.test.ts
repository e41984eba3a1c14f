import { afterEach, describe, expect, it, vi } from "vitest";
import { logger } from "@/server/logger";
import { createDashboardCaller } from "./root";

/** A database whose every use fails the way a bug on our side does (not an outage). */
const failingDb = new Proxy(
  {},
  {
    get: () => {
      throw new Error("the statement failed");
    },
  },
) as never;

afterEach(() => vi.restoreAllMocks());

describe("dashboard failures on our side", () => {
  it("are logged with the request id the page tells the user to quote, the procedure and the cause", async () => {
    const error = vi.spyOn(logger, "error").mockImplementation(() => undefined);
    const caller = createDashboardCaller({ db: failingDb, requestId: "req_dashboard_failure", sessionUserId: "user-1", session: { id: "s", version: 1 } });
    await expect(caller.requests.get({ requestId: "req_x" })).rejects.toMatchObject({ code: "INTERNAL_SERVER_ERROR" });
    expect(error).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalledWith(
      expect.objectContaining({
        request_id: "req_dashboard_failure",
        path: "requests.get",
        type: "query",
        err: expect.objectContaining({ message: "the statement failed" }),
      }),
      "dashboard procedure failed",
    );
  });

  it("refusals (a lost session, a bad input) are answered, not logged as failures", async () => {
    const error = vi.spyOn(logger, "error").mockImplementation(() => undefined);
    const warn = vi.spyOn(logger, "warn").mockImplementation(() => undefined);
    const signedOut = createDashboardCaller({ db: failingDb, requestId: "req_signed_out", sessionUserId: null });
    await expect(signedOut.requests.get({ requestId: "req_x" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(error).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
  });
});
