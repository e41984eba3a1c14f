import { describe, expect, it } from "vitest";
import { postgresCredentialsSchema } from "./source-config";

describe("Postgres source credentials", () => {
  it("accept a plain URL, with TLS through sslmode", () => {
    expect(postgresCredentialsSchema.safeParse({ url: "postgres://u:p@db.example.com:5432/shop?sslmode=require" }).success).toBe(true);
  });

  it("refuse every other URL parameter, percent-encoded names included, naming it", () => {
    const cases: [string, string][] = [
      ["sslrootcert=/etc/passwd", "sslrootcert"],
      ["sslkey=/root/.ssh/id_rsa", "sslkey"],
      ["passfile=/x", "passfile"],
      ["%73slcert=/etc/passwd", "sslcert"],
      ["ssl%72ootcert=/dev/zero", "sslrootcert"],
      ["%70assfile=/x", "passfile"],
      ["service=prod", "service"],
      ["options=-c%20statement_timeout%3D0", "options"],
      ["host=/var/run/postgresql", "host"],
      ["application_name=x", "application_name"],
    ];
    for (const [parameter, name] of cases) {
      const result = postgresCredentialsSchema.safeParse({ url: `postgres://u:p@db.example.com/shop?sslmode=require&${parameter}` });
      expect(result.success, parameter).toBe(false);
      expect(result.error?.issues[0]?.message, parameter).toMatch(new RegExp(`^parameter ${name} is not allowed`));
    }
  });
});
