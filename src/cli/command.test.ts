import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { CliUsageError, requireSecretOption, wholeNumberOption } from "./command";

describe("secret options", () => {
  const piped = (text: string) => Readable.from([text]);

  it("take the value as given, or read it from standard input when it is -", async () => {
    expect(await requireSecretOption({ values: { password: "on the line" }, positionals: [] }, "password", piped("unused"))).toBe("on the line");
    expect(await requireSecretOption({ values: { url: "-" }, positionals: [] }, "url", piped("postgres://u:p@h/db\n"))).toBe("postgres://u:p@h/db");
  });

  it("refuse a missing option or an empty standard input", async () => {
    await expect(requireSecretOption({ values: {}, positionals: [] }, "password", piped("x"))).rejects.toThrow(CliUsageError);
    await expect(requireSecretOption({ values: { password: "-" }, positionals: [] }, "password", piped("\n"))).rejects.toThrow(/standard input was empty/);
  });
});

describe("whole-number options", () => {
  const args = (value?: string) => ({ values: value === undefined ? {} : { limit: value }, positionals: [] });

  it("take digits within the range, and nothing when left out", () => {
    expect(wholeNumberOption(args("1"), "limit", { min: 1, max: 100 })).toBe(1);
    expect(wholeNumberOption(args("100"), "limit", { min: 1, max: 100 })).toBe(100);
    expect(wholeNumberOption(args("0"), "limit", { min: 0 })).toBe(0);
    expect(wholeNumberOption(args(), "limit", { min: 1 })).toBeUndefined();
  });

  it("refuse what Number() would read anyway, and what is out of range, naming the option and its range", () => {
    for (const value of ["1e3", "0x10", " 5", "5 ", "-1", "1.5", "", "five", "101", "0"]) {
      expect(() => wholeNumberOption(args(value), "limit", { min: 1, max: 100 }), value).toThrow(
        new CliUsageError("--limit must be a whole number from 1 to 100"),
      );
    }
    expect(() => wholeNumberOption(args("0"), "limit", { min: 1 })).toThrow("--limit must be a whole number of at least 1");
    expect(() => wholeNumberOption(args("99999999999999999999"), "limit", { min: 1 })).toThrow(CliUsageError);
  });
});
