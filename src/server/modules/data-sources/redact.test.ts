import { describe, expect, it } from "vitest";
import { describeUrl, redactSecrets } from "./redact";

describe("redactSecrets", () => {
  it("drops the password of any URL in the text", () => {
    expect(redactSecrets("connect to postgres://app:p%40ss@db:5432/x failed")).toBe("connect to postgres://app:***@db:5432/x failed");
    expect(redactSecrets("https://user:tok@host/path and http://other/")).toBe("https://user:***@host/path and http://other/");
  });

  it("removes each given secret, raw or URL-encoded", () => {
    expect(redactSecrets("secret is s3cr3t/+= and s3cr3t%2F%2B%3D", ["s3cr3t/+="])).toBe("secret is *** and ***");
    expect(redactSecrets("abc", [undefined, null, "", "ab"])).toBe("abc");
  });

  it("describeUrl keeps everything but the password", () => {
    expect(describeUrl("postgres://app:hunter22@db:5432/crm?sslmode=require")).toBe("postgres://app:***@db:5432/crm?sslmode=require");
  });
});
