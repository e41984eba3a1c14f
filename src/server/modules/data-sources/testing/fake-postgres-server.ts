import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A stranger's "Postgres server" for secret-handling tests: it speaks just enough of the
 * protocol to be handed a password. It answers an SSLRequest with "N", a startup message with
 * AuthenticationCleartextPassword (R, code 3), records the PasswordMessage it gets, then refuses
 * it with 28P01 as a real server would. Every connection is counted, password or not.
 */
export interface FakePostgres {
  readonly host: string;
  readonly port: number;
  /** Connections accepted (a TCP connect is already contact). */
  readonly connections: number;
  /** Startup messages seen: the user each one named. */
  readonly startups: string[];
  /** Every password a client sent. */
  readonly passwords: string[];
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const PROTOCOL_3 = 196608;

export async function startFakePostgres(): Promise<FakePostgres> {
  const sockets = new Set<Socket>();
  const state = { connections: 0, startups: [] as string[], passwords: [] as string[] };
  const server = createServer((socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
    let buffer = Buffer.alloc(0);
    let started = false;
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!started) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) return;
          const code = buffer.readInt32BE(4);
          const body = buffer.subarray(8, length);
          buffer = buffer.subarray(length);
          if (code === SSL_REQUEST) {
            socket.write("N");
            continue;
          }
          if (code !== PROTOCOL_3) return void socket.destroy();
          const parts = body.toString("utf8").split("\0");
          state.startups.push(parts[parts.indexOf("user") + 1] ?? "");
          started = true;
          socket.write(authenticationCleartext());
          continue;
        }
        if (buffer.length < 5) return;
        const length = buffer.readInt32BE(1);
        if (buffer.length < length + 1) return;
        const type = String.fromCharCode(buffer[0]!);
        const body = buffer.subarray(5, length + 1);
        buffer = buffer.subarray(length + 1);
        if (type === "p") {
          state.passwords.push(body.toString("utf8").replace(/\0$/, ""));
          socket.end(errorResponse("28P01", `password authentication failed for user "${state.startups.at(-1) ?? ""}"`));
          return;
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: "127.0.0.1",
    port,
    get connections() {
      return state.connections;
    },
    startups: state.startups,
    passwords: state.passwords,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function authenticationCleartext(): Buffer {
  const message = Buffer.alloc(9);
  message.write("R", 0);
  message.writeInt32BE(8, 1);
  message.writeInt32BE(3, 5);
  return message;
}

function errorResponse(code: string, text: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${text}\0\0`, "utf8");
  const header = Buffer.alloc(5);
  header.write("E", 0);
  header.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([header, fields]);
}
