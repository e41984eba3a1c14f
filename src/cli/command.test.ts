import { describe, expect, it } from "vitest";
import { CliUsageError, requireSecretOption } from "./command";

describe("secret options", () => {
  it("take the value as given, or read it from standard input when it is -", async () => {
    expect(await requireSecretOption({ values: { password: "on the line" }, positionals: [] }, "password", async () => "unused")).toBe("on the line");
    expect(await requireSecretOption({ values: { url: "-" }, positionals: [] }, "url", async () => "postgres://u:p@h/db\n")).toBe("postgres://u:p@h/db");
  });

  it("refuse a missing option or an empty standard input", async () => {
    await expect(requireSecretOption({ values: {}, positionals: [] }, "password", async () => "x")).rejects.toThrow(CliUsageError);
    await expect(requireSecretOption({ values: { password: "-" }, positionals: [] }, "password", async () => "\n")).rejects.toThrow(/standard input was empty/);
  });
});
