import { createServer, connect, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export interface TcpProxy {
  readonly port: number;
  /** Connections accepted so far. */
  readonly opened: number;
  /** Keeps every connection open but forwards nothing: the target looks hung (as under SIGSTOP). */
  freeze(): void;
  /** Cuts every open connection (a server crash or a network drop mid-conversation). */
  dropConnections(): void;
  /** Drops every connection and refuses new ones: the target looks stopped. */
  cut(): void;
  /** Forwards again, to new connections (after `cut`) and on open ones (after `freeze`). */
  restore(): void;
  close(): Promise<void>;
}

/** A TCP proxy to a local service, for simulating that service hanging, dropping or stopping mid-conversation. */
export async function startTcpProxy(targetPort: number, targetHost = "127.0.0.1"): Promise<TcpProxy> {
  let frozen = false;
  let down = false;
  const sockets = new Set<Socket>();
  let opened = 0;
  const server = createServer((client) => {
    opened++;
    if (down) {
      client.destroy();
      return;
    }
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
    get opened() {
      return opened;
    },
    freeze: () => {
      frozen = true;
    },
    dropConnections: () => {
      for (const socket of sockets) socket.destroy();
    },
    cut: () => {
      down = true;
      for (const socket of sockets) socket.destroy();
    },
    restore: () => {
      down = false;
      frozen = false;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
