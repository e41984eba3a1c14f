import { describe, expect, it } from "vitest";
import { crmRequest, MAX_CRM_RESPONSE_BYTES, type FetchLike } from "./crm-http";

/** A body streamed in chunks, with or without a Content-Length announcing it. */
function streamed(chunks: number, chunkBytes: number, announce: boolean): { fetch: FetchLike; pulled: () => number } {
  let pulled = 0;
  const fetchImpl: FetchLike = async () => {
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulled === chunks) return controller.close();
        pulled += 1;
        controller.enqueue(new Uint8Array(chunkBytes).fill(0x20));
      },
    });
    return new Response(body, { status: 200, headers: announce ? { "content-length": String(chunks * chunkBytes) } : {} });
  };
  return { fetch: fetchImpl, pulled: () => pulled };
}

describe("a CRM answer", () => {
  it("past the byte cap is refused without reading the rest", async () => {
    const body = streamed(100, 1024, false);
    const result = await crmRequest(body.fetch, "The CRM query on Account", "https://acme.example.com/q", {}, 5_000, 10 * 1024);
    expect(result).toEqual({ ok: false, reason: "The CRM query on Account at acme.example.com answered more than 10240 bytes; refusing to read it" });
    expect(body.pulled()).toBeLessThan(20);
  });

  it("announced bigger than the cap is refused before its body is read", async () => {
    const body = streamed(100, 1024, true);
    const result = await crmRequest(body.fetch, "Describing Account", "https://acme.example.com/d", {}, 5_000, 10 * 1024);
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/answered more than 10240 bytes/) });
  });

  it("within the cap is read whole; the default cap is 32 MiB", async () => {
    const result = await crmRequest(async () => Response.json({ done: true, records: [] }), "q", "https://acme.example.com/q", {}, 5_000);
    expect(result).toEqual({ ok: true, value: { status: 200, body: { done: true, records: [] } } });
    expect(MAX_CRM_RESPONSE_BYTES).toBe(32 * 1024 * 1024);
  });

  it("is never followed through a redirect", async () => {
    let seen: RequestInit | undefined;
    await crmRequest(async (_url, init) => ((seen = init), Response.json({})), "q", "https://acme.example.com/q", {}, 5_000);
    expect(seen?.redirect).toBe("error");
  });
});
