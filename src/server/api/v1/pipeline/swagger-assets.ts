import { readFile } from "node:fs/promises";
import path from "node:path";

/** The API reference renders with no internet: its assets come from the installed package. */
const assets = new Map<string, string>([["swagger-ui-bundle.js", "text/javascript; charset=utf-8"]]);

export async function serveSwaggerAsset(_req: Request, { params }: { params: Promise<{ file: string }> }): Promise<Response> {
  const { file } = await params;
  // NOTE: a Map, not an object: `constructor` or `__proto__` must be unknown files, not a 500.
  const contentType = assets.get(file);
  if (!contentType) return new Response("Not found", { status: 404 });
  const body = await readFile(path.join(process.cwd(), "node_modules", "swagger-ui-dist", file));
  return new Response(body, {
    headers: { "Content-Type": contentType, "Cache-Control": "public, max-age=86400" },
  });
}
