import { describe, expect, it } from "vitest";
import { postgresCredentialsSchema } from "./source-config";

describe("Postgres source credentials", () => {
  it("accept a plain URL, with TLS through sslmode", () => {
    expect(postgresCredentialsSchema.safeParse({ url: "postgres://u:p@db.example.com:5432/shop?sslmode=require" }).success).toBe(true);
  });

  it("refuse URL parameters that make the server read its own files", () => {
    for (const parameter of ["sslrootcert=/etc/passwd", "sslkey=/root/.ssh/id_rsa", "SSLCERT=/x", "passfile=/x"]) {
      const result = postgresCredentialsSchema.safeParse({ url: `postgres://u:p@db.example.com/shop?sslmode=require&${parameter}` });
      expect(result.success, parameter).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/must not name local files/);
    }
  });
});
