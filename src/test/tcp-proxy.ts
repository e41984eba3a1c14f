import { createServer, connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export interface TcpProxy {
  readonly port: number;
  /** Keeps every connection open but forwards nothing: the target looks hung (as under SIGSTOP). */
  freeze(): void;
  /** Cuts every open connection (a server crash or a network drop mid-conversation). */
  dropConnections(): void;
  close(): Promise<void>;
}

/** A TCP proxy to a local service, for simulating that service hanging or dropping mid-conversation. */
export async function startTcpProxy(targetPort: number, targetHost = "127.0.0.1"): Promise<TcpProxy> {
  let frozen = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, targetHost);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => socket.destroy());
      socket.on("close", () => sockets.delete(socket));
    }
    client.on("data", (chunk) => frozen || upstream.write(chunk));
    upstream.on("data", (chunk) => frozen || client.write(chunk));
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    freeze: () => {
      frozen = true;
    },
    dropConnections: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
