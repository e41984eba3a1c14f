import { describe, expect, it } from "vitest";
import { CliUsageError, type CliArgs } from "../command";
import { muteEnd } from "./alert-rule";

const args = (values: CliArgs["values"]): CliArgs => ({ values, positionals: [] });
const now = new Date("2026-12-02T10:00:00Z");

describe("muteEnd (alert rule mute --for / --until)", () => {
  it("reads minutes, hours and days, or a time with its offset", () => {
    expect(muteEnd(args({ for: "90m" }), now).toISOString()).toBe("2026-12-02T11:30:00.000Z");
    expect(muteEnd(args({ for: "24h" }), now).toISOString()).toBe("2026-12-03T10:00:00.000Z");
    expect(muteEnd(args({ for: "7d" }), now).toISOString()).toBe("2026-12-09T10:00:00.000Z");
    expect(muteEnd(args({ until: "2026-12-03T09:00:00+01:00" }), now).toISOString()).toBe("2026-12-03T08:00:00.000Z");
  });

  it("refuses both, neither, other units and a time without its offset", () => {
    for (const values of [
      {} as CliArgs["values"],
      { for: "1h", until: "2026-12-03T09:00:00Z" },
      { for: "1w" },
      { for: "h" },
      { until: "2026-12-03 09:00" },
      { until: "tomorrow" },
    ]) {
      expect(() => muteEnd(args(values), now)).toThrow(CliUsageError);
    }
  });
});
