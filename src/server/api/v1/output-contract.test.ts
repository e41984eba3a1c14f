import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { resetEnvCache } from "@/env";
import type { ApiMeta } from "./meta";
import { answerBody, checksOutputs, outputContract } from "./output-contract";

// D262: answers are parsed by their output schema outside production only. `npm start` does not
// set NODE_ENV, which means production (env.ts), so an unset NODE_ENV must skip the parse.

const schema = z.object({ id: z.string() }).strict();

afterEach(() => {
  vi.unstubAllEnvs();
  resetEnvCache();
});

function withEnv(values: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(values)) vi.stubEnv(name, value);
  resetEnvCache();
}

describe("outputContract", () => {
  it("skips the parse when NODE_ENV is unset (production, as `npm start` runs)", () => {
    withEnv({ NODE_ENV: undefined, GROUNDWORK_CHECK_OUTPUT: undefined });
    expect(checksOutputs()).toBe(false);
    const answer = { id: "x", extra: 1 };
    expect(outputContract(schema).parse(answer)).toBe(answer);
  });

  it("parses in production when GROUNDWORK_CHECK_OUTPUT=on", () => {
    withEnv({ NODE_ENV: "production", GROUNDWORK_CHECK_OUTPUT: "on" });
    expect(checksOutputs()).toBe(true);
    expect(() => outputContract(schema).parse({ id: "x", extra: 1 })).toThrow();
  });

  it("parses under test and in development", () => {
    for (const mode of ["test", "development"]) {
      withEnv({ NODE_ENV: mode, GROUNDWORK_CHECK_OUTPUT: undefined });
      expect(checksOutputs()).toBe(true);
      expect(outputContract(schema).parse({ id: "x" })).toEqual({ id: "x" });
    }
  });
});

const openapi = { method: "GET", path: "/things" } as const;

describe("answerBody", () => {
  it("is JSON.stringify for an operation without a writer", () => {
    expect(answerBody({ openapi }, { data: [1], request_id: "req_x" })).toBe('{"data":[1],"request_id":"req_x"}');
  });

  it("uses the operation's writer, checked against JSON.stringify outside production", () => {
    const output = { data: [{ id: "a", name: "A" }], request_id: "req_x" };
    const faithful: ApiMeta = {
      openapi,
      writeBody: (o: { data: unknown[]; request_id: string }) => `{"data":${JSON.stringify(o.data)},"request_id":"${o.request_id}"}`,
    };
    expect(answerBody(faithful, output)).toBe(JSON.stringify(output));
    const drifted: ApiMeta = { openapi, writeBody: () => '{"data":[{"id":"a"}],"request_id":"req_x"}' };
    expect(() => answerBody(drifted, output)).toThrow(/GET \/things: the operation's body writer does not write its answer/);
  });
});
