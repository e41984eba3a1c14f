import { describe, expect, it } from "vitest";
import type { ApiMeta } from "@/server/api/v1/meta";
import { answerBody } from "./answer-body";

const openapi = { method: "GET", path: "/things" } as const;

describe("answerBody", () => {
  it("is JSON.stringify for an operation without a writer", () => {
    expect(answerBody({ openapi }, { data: [1], request_id: "req_x" })).toBe('{"data":[1],"request_id":"req_x"}');
  });

  it("uses the operation's writer, checked against JSON.stringify outside production", () => {
    const output = { data: [{ id: "a", name: "A" }], request_id: "req_x" };
    const faithful: ApiMeta = { openapi, writeBody: (o: { data: unknown[]; request_id: string }) => `{"data":${JSON.stringify(o.data)},"request_id":"${o.request_id}"}` };
    expect(answerBody(faithful, output)).toBe(JSON.stringify(output));
    const drifted: ApiMeta = { openapi, writeBody: () => '{"data":[{"id":"a"}],"request_id":"req_x"}' };
    expect(() => answerBody(drifted, output)).toThrow(/GET \/things: the operation's body writer does not write its answer/);
  });
});
