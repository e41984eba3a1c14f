import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import os from "node:os";
import path from "node:path";
import { freePort } from "./free-port";

// deploy/nginx/groundwork.conf as shipped, in Debian's nginx on loopback with a self-signed
// certificate, in front of an app on `appPort`. Only the listen addresses, the certificate paths
// and the upstream port are rewritten; `proxyBind` makes nginx reach the app from that address, so
// an app can trust exactly its proxy (GROUNDWORK_TRUSTED_PROXIES) and nobody else on loopback.
// Used by the integration test of the site file and by the end-to-end test in front of `npm start`.

const root = path.resolve(import.meta.dirname, "../..");
export const PROXY_HOSTNAME = "groundwork.test";

export interface ProxyAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

export interface ProxyRequest {
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: Iterable<Buffer>;
  localAddress?: string;
  /** false: plain HTTP to the proxy's port 80 stand-in. */
  tls?: boolean;
}

export interface NginxProxy {
  httpsPort: number;
  httpPort: number;
  /** https://groundwork.test:<port> */
  origin: string;
  request(options: ProxyRequest): Promise<ProxyAnswer>;
  stop(): Promise<void>;
}

function replaceOnce(text: string, from: string, to: string): string {
  if (text.split(from).length - 1 !== 1) throw new Error(`deploy/nginx/groundwork.conf must have "${from}" exactly once`);
  return text.replace(from, to);
}

/** The ports are chosen before nginx starts, so a caller can give the app its public origin first. */
export async function reserveProxyPorts(): Promise<{ httpsPort: number; httpPort: number; origin: string }> {
  const [httpsPort, httpPort] = [await freePort(), await freePort()];
  return { httpsPort, httpPort, origin: `https://${PROXY_HOSTNAME}:${httpsPort}` };
}

export async function startNginxProxy(options: { appPort: number; ports?: { httpsPort: number; httpPort: number }; proxyBind?: string }): Promise<NginxProxy> {
  execFileSync("bash", [path.join(root, "scripts/ensure-debian-packages.sh"), "nginx=nginx"], { stdio: "inherit" });
  const { httpsPort, httpPort } = options.ports ?? (await reserveProxyPorts());
  const work = mkdtempSync(path.join(os.tmpdir(), "gw-nginx-"));
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      `/CN=${PROXY_HOSTNAME}`,
      "-addext",
      `subjectAltName=DNS:${PROXY_HOSTNAME}`,
      "-keyout",
      path.join(work, "key.pem"),
      "-out",
      path.join(work, "cert.pem"),
    ],
    { stdio: "ignore" },
  );
  const cert = readFileSync(path.join(work, "cert.pem"), "utf8");

  let site = readFileSync(path.join(root, "deploy/nginx/groundwork.conf"), "utf8");
  site = replaceOnce(site, "listen 80;", `listen 127.0.0.1:${httpPort};`);
  site = replaceOnce(site, "listen 443 ssl http2;", `listen 127.0.0.1:${httpsPort} ssl http2;`);
  site = replaceOnce(site, "/etc/letsencrypt/live/groundwork.example.org/fullchain.pem", path.join(work, "cert.pem"));
  site = replaceOnce(site, "/etc/letsencrypt/live/groundwork.example.org/privkey.pem", path.join(work, "key.pem"));
  site = replaceOnce(site, "server 127.0.0.1:3000;", `server 127.0.0.1:${options.appPort};`);
  writeFileSync(path.join(work, "groundwork.conf"), site);
  const tempDirs = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"];
  for (const dir of tempDirs) mkdirSync(path.join(work, dir), { recursive: true });
  writeFileSync(
    path.join(work, "nginx.conf"),
    [
      process.getuid?.() === 0 ? "user root;" : "",
      "worker_processes 1;",
      `pid ${path.join(work, "nginx.pid")};`,
      `error_log ${path.join(work, "error.log")} warn;`,
      "events { worker_connections 128; }",
      "http {",
      `  access_log ${path.join(work, "access.log")};`,
      ...tempDirs.map((dir) => `  ${dir}_temp_path ${path.join(work, dir)};`),
      options.proxyBind ? `  proxy_bind ${options.proxyBind};` : "",
      `  include ${path.join(work, "groundwork.conf")};`,
      "}",
    ].join("\n"),
  );

  const request = (req: ProxyRequest): Promise<ProxyAnswer> =>
    new Promise((resolve, reject) => {
      const port = req.tls === false ? httpPort : httpsPort;
      const common = {
        host: "127.0.0.1",
        port,
        path: req.path,
        method: req.method ?? "GET",
        localAddress: req.localAddress,
        headers: { host: `${PROXY_HOSTNAME}:${port}`, ...req.headers },
      };
      const onResponse = (res: http.IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      };
      const outgoing =
        req.tls === false ? http.request(common, onResponse) : https.request({ ...common, ca: cert, servername: PROXY_HOSTNAME, agent: false }, onResponse);
      outgoing.on("error", reject);
      for (const chunk of req.body ?? []) outgoing.write(chunk);
      outgoing.end();
    });

  const nginx: ChildProcess = spawn("nginx", ["-p", work, "-c", path.join(work, "nginx.conf"), "-g", "daemon off;"], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  nginx.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (nginx.exitCode === null && nginx.signalCode === null) {
      await new Promise<void>((resolve) => {
        nginx.once("exit", () => resolve());
        nginx.kill("SIGTERM");
        setTimeout(() => nginx.kill("SIGKILL"), 5_000).unref();
      });
    }
    rmSync(work, { recursive: true, force: true });
  };
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (nginx.exitCode !== null) {
      await stop();
      throw new Error(`nginx exited: ${output}`);
    }
    if (
      await request({ path: "/api/v1/health" }).then(
        () => true,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`nginx did not answer: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { httpsPort, httpPort, origin: `https://${PROXY_HOSTNAME}:${httpsPort}`, request, stop };
}
