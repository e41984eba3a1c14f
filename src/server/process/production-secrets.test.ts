import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "@/env";
import { generatedSecretsRefusal } from "./production-secrets";

const external = { NODE_ENV: "production", DATABASE_URL: "postgres://db.internal/groundwork" } as const;
const dataDir = "/var/lib/groundwork";
const none = () => false;

describe("generatedSecretsRefusal (D395)", () => {
  it("refuses a production start on an external database whose secrets would be generated, naming each variable", () => {
    const refusal = generatedSecretsRefusal(parseEnv(external), dataDir, { exists: none });
    expect(refusal).toContain("GROUNDWORK_ENCRYPTION_KEY, GROUNDWORK_CURSOR_SECRET, NEXTAUTH_SECRET are not set");
    expect(refusal).toContain("GROUNDWORK_ALLOW_GENERATED_SECRETS=on");
  });

  it("names only the secrets still missing: one set in the environment, one already in the data dir", () => {
    const config = parseEnv({ ...external, NEXTAUTH_SECRET: "s".repeat(32) });
    const refusal = generatedSecretsRefusal(config, dataDir, { exists: (file) => file === path.join(dataDir, "cursor.key") });
    expect(refusal).toMatch(/but GROUNDWORK_ENCRYPTION_KEY is not set/);
    expect(refusal).not.toContain("GROUNDWORK_CURSOR_SECRET (");
    expect(refusal).not.toContain("NEXTAUTH_SECRET (");
  });

  it("asks a process only for the secrets it uses (the worker: the encryption key)", () => {
    const refusal = generatedSecretsRefusal(parseEnv(external), dataDir, { uses: ["GROUNDWORK_ENCRYPTION_KEY"], exists: none });
    expect(refusal).toMatch(/but GROUNDWORK_ENCRYPTION_KEY is not set/);
    const withKey = parseEnv({ ...external, GROUNDWORK_ENCRYPTION_KEY: "k" });
    expect(generatedSecretsRefusal(withKey, dataDir, { uses: ["GROUNDWORK_ENCRYPTION_KEY"], exists: none })).toBeNull();
  });

  it("lets the start go on when every secret is set, when allowed, on the embedded default, and outside production", () => {
    const all = { GROUNDWORK_ENCRYPTION_KEY: "k", GROUNDWORK_CURSOR_SECRET: "c".repeat(32), NEXTAUTH_SECRET: "s".repeat(32) };
    expect(generatedSecretsRefusal(parseEnv({ ...external, ...all }), dataDir, { exists: none })).toBeNull();
    expect(generatedSecretsRefusal(parseEnv({ ...external, GROUNDWORK_ALLOW_GENERATED_SECRETS: "on" }), dataDir, { exists: none })).toBeNull();
    expect(generatedSecretsRefusal(parseEnv({ NODE_ENV: "production" }), dataDir, { exists: none })).toBeNull();
    expect(generatedSecretsRefusal(parseEnv({ ...external, NODE_ENV: "development" as const }), dataDir, { exists: none })).toBeNull();
  });
});
