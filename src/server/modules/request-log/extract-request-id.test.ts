import { describe, expect, it } from "vitest";
import { extractRequestId } from "./lookup";

const id = "req_0123456789abcdefghijklmn";

describe("extractRequestId (D422)", () => {
  it("finds the id in whatever was pasted", () => {
    expect(extractRequestId(id)).toBe(id);
    expect(extractRequestId(`"request_id":"${id}"`)).toBe(id);
    expect(extractRequestId(`{"error":{"code":"bad_request"},"request_id":"${id}"}`)).toBe(id);
    expect(extractRequestId(`Request id: ${id}.`)).toBe(id);
    expect(extractRequestId(`x-request-id: ${id}\r\n`)).toBe(id);
  });

  it("finds none in text without one, or inside a longer word", () => {
    expect(extractRequestId("hello")).toBeNull();
    expect(extractRequestId("req_short")).toBeNull();
    expect(extractRequestId(`${id}x`)).toBeNull();
    expect(extractRequestId(`my${id}`)).toBeNull();
  });
});
