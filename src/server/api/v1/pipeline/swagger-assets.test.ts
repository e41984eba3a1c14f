import { describe, expect, it } from "vitest";
import { serveSwaggerAsset } from "./swagger-assets";

const ask = (file: string) => serveSwaggerAsset(new Request("http://x/docs/assets/" + file), { params: Promise.resolve({ file }) });

describe("the API reference's assets", () => {
  it("answers 404 for prototype keys and unknown files, not a 500", async () => {
    for (const file of ["constructor", "__proto__", "toString", "hasOwnProperty", "../package.json"]) {
      expect((await ask(file)).status, file).toBe(404);
    }
  });

  it("serves the bundle from the installed package", async () => {
    const res = await ask("swagger-ui-bundle.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("javascript");
  });
});
