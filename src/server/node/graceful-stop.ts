import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** What the request handler asks of the drain: are we stopping, and a request has started. */
export interface ServerState {
  readonly stopping: boolean;
  requestStarted(req: IncomingMessage, res: ServerResponse): void;
}

interface Tracked {
  state: { stopping: boolean };
  /** Requests in progress per connection. */
  active: Map<Socket, number>;
}

const tracked = new WeakMap<Server, Tracked>();

/**
 * Counts the requests in progress on each connection, so a stop can close every keep-alive
 * connection right after its current response, and idle ones at once.
 */
export function trackConnections(server: Server): ServerState {
  const entry: Tracked = { state: { stopping: false }, active: new Map() };
  tracked.set(server, entry);
  server.on("connection", (socket: Socket) => {
    entry.active.set(socket, 0);
    socket.once("close", () => entry.active.delete(socket));
  });
  return {
    get stopping() {
      return entry.state.stopping;
    },
    requestStarted(req, res) {
      const socket = req.socket;
      entry.active.set(socket, (entry.active.get(socket) ?? 0) + 1);
      // Stopping: this response tells the client the connection ends with it.
      if (entry.state.stopping) res.setHeader("Connection", "close");
      res.once("close", () => {
        const left = (entry.active.get(socket) ?? 1) - 1;
        entry.active.set(socket, left);
        if (entry.state.stopping && left === 0) socket.end();
      });
    },
  };
}

export interface StopOptions {
  /** How long in-flight requests may take before their connections are cut (GROUNDWORK_SHUTDOWN_TIMEOUT_MS). */
  timeoutMs: number;
  log: (message: string) => void;
}

/**
 * Stops a server without dropping work (D178): health answers 503 from now on, the listener
 * closes (new connections are refused), every in-flight request runs to its end with
 * `Connection: close`, idle keep-alive connections end after their next response or at their keep-alive timeout, and whatever is still running at
 * the deadline is cut. Resolves with how many connections had to be cut.
 */
export async function stopServer(server: Server, options: StopOptions): Promise<{ cut: number }> {
  const entry = tracked.get(server);
  if (!entry) throw new Error("stopServer: not a server from createNodeServer");
  entry.state.stopping = true;
  const busy = [...entry.active.values()].filter((count) => count > 0).length;
  options.log(`stopping the HTTP server: health answers 503, no new connections; ${busy} connection(s) busy, ${entry.active.size - busy} idle`);
  // NOTE: Node's server.close() also destroys every idle keep-alive connection at once. A client
  // may have just written its next request on one (not yet read): it would lose it with no
  // answer. So idle connections are left to end by themselves: the next request on each is
  // answered with `Connection: close`, and one that stays idle ends at the keep-alive timeout
  // (5 s, announced to clients in `Keep-Alive: timeout=5` so they stop reusing it before).
  const closeIdle = server.closeIdleConnections;
  server.closeIdleConnections = () => undefined;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections = closeIdle;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"deadline">((resolve) => {
    timer = setTimeout(() => resolve("deadline"), options.timeoutMs);
  });
  const outcome = await Promise.race([closed.then(() => "closed" as const), deadline]);
  clearTimeout(timer);
  if (outcome === "closed") {
    options.log("every in-flight request finished; the HTTP server is closed");
    return { cut: 0 };
  }
  const cut = entry.active.size;
  options.log(`deadline of ${options.timeoutMs} ms reached: cutting ${cut} connection(s) still open`);
  server.closeAllConnections();
  await closed;
  return { cut };
}
