// `npm start`: the production server without a TypeScript loader in the process (D329). The
// server's own code (src/server/process/start-server.ts and the worker it forks) is bundled with esbuild into
// .build/server on every start (a fraction of a second; packages stay in node_modules), then run
// by plain Node: tsx's loader thread held ~40 MB of the idle server. `npm run dev` keeps tsx.
import { build, stop } from "esbuild";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(fileURLToPath(new URL("..", import.meta.url)));
const outdir = path.join(root, ".build", "server");

let outputFiles;
try {
  ({ outputFiles } = await build({
    absWorkingDir: root,
    entryPoints: { start: "src/server/process/start-server.ts", "forked-worker": "src/worker/forked-worker.ts" },
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: "linked",
    logLevel: "warning",
    write: false,
  }));
} catch {
  // esbuild has printed what failed.
  process.exit(1);
} finally {
  await stop();
}
// NOTE: a file is replaced only when it changed, and by a rename: two servers starting at once
// (tests) never import a half-written bundle.
mkdirSync(outdir, { recursive: true });
for (const file of outputFiles) {
  if (existsSync(file.path) && Buffer.compare(readFileSync(file.path), file.contents) === 0) continue;
  const partial = `${file.path}.${process.pid}.partial`;
  writeFileSync(partial, file.contents);
  renameSync(partial, file.path);
}
await import(pathToFileURL(path.join(outdir, "start.mjs")).href);
