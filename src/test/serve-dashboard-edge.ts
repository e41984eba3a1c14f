import type { AddressInfo } from "node:net";
import pino from "pino";
import { env } from "@/env";
import { handleCsvUpload } from "@/server/api/dashboard/csv-upload";
import { handleRecordsExport } from "@/server/api/dashboard/records-export";
import { createPrismaClient } from "@/server/db/client";
import { CLIENT_ADDRESS_HEADER } from "@/server/auth/client-address-header";
import { handleHealthRequest } from "@/server/api/v1/pipeline/health-route";
import { sendFetchResponse, toFetchRequest } from "@/server/node/node-fetch-bridge";
import { createNodeServer } from "@/server/node/node-server";
import { verifySignIn } from "@/server/modules/users/sign-in";

// The dashboard's edge without Next, for the reverse-proxy test (deploy/nginx): /api/v1/health,
// the CSV upload (D161), the records export, and the sign-in check next-auth's Credentials
// provider runs (src/server/auth/auth-options.ts: verifySignIn with the address the edge put in
// CLIENT_ADDRESS_HEADER; next-auth itself does not load outside Next), all in the node:http server factory `npm start` uses, which sets the client address from the
// socket or, behind GROUNDWORK_TRUSTED_PROXIES, from X-Forwarded-For (D174). Needs DATABASE_URL
// and NEXTAUTH_SECRET; prints `listening <port> <pid>`. Started by deploy-artifacts tests.

const { DATABASE_URL } = env();
if (!DATABASE_URL) throw new Error("serve-dashboard-edge: DATABASE_URL is required");
const prisma = createPrismaClient(DATABASE_URL);

async function readJson(req: import("node:http").IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, string>;
}

const server = createNodeServer(
  async (req, res) => {
    const path = req.url?.split("?")[0] ?? "";
    if (req.method === "GET" && path === "/api/v1/health") return sendFetchResponse(res, await handleHealthRequest());
    if (req.method === "POST" && path === "/test/sign-in") {
      const { email = "", password = "" } = await readJson(req);
      const address = req.headers[CLIENT_ADDRESS_HEADER];
      const result = await verifySignIn(prisma, { email, password, address: typeof address === "string" ? address : "unknown" });
      return void res.writeHead(result.ok ? 200 : 401, { "content-type": "application/json" }).end(JSON.stringify(result));
    }
    const upload = /^\/api\/dashboard\/organizations\/([^/]+)\/sources\/([^/]+)\/csv$/.exec(path);
    if (req.method === "POST" && upload) {
      return sendFetchResponse(res, await handleCsvUpload(toFetchRequest(req), { organizationId: upload[1]!, sourceId: upload[2]! }));
    }
    const exported = /^\/dashboard\/organizations\/([^/]+)\/forms\/([^/]+)\/export$/.exec(path);
    if (req.method === "GET" && exported) return sendFetchResponse(res, await handleRecordsExport(toFetchRequest(req), exported[1]!, exported[2]!));
    res.writeHead(404).end();
  },
  pino({ level: "silent" }),
);

server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port} ${process.pid}\n`);
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
