import { createServer, type ServerResponse } from "node:http";
import { createServer as createTcpServer, type AddressInfo, type Socket } from "node:net";
import { Readable } from "node:stream";

/**
 * Receivers that misbehave on purpose, each on 127.0.0.1:0. They count the body bytes they
 * managed to hand to the socket (a lazily generated stream that honours backpressure, so nothing
 * is buffered here) and whether the client closed the connection.
 */
export async function startHostileReceiver(kind: "huge-body" | "drip" | "no-headers", bodyBytes = 4 * 1024 ** 3) {
  let written = 0;
  let requests = 0;
  let closed = 0;
  const answer = (res: ServerResponse) => {
    if (kind === "no-headers") return;
    res.writeHead(200, { "content-type": "application/octet-stream" });
    if (kind === "drip") {
      const timer = setInterval(() => {
        written += 1;
        res.write("x");
      }, 100);
      res.on("close", () => clearInterval(timer));
      return;
    }
    const chunk = Buffer.alloc(64 * 1024, 120);
    const body = new Readable({
      read() {
        if (written >= bodyBytes) return void this.push(null);
        written += chunk.length;
        this.push(chunk);
      },
    });
    res.on("close", () => body.destroy());
    body.pipe(res);
  };
  const server = createServer((req, res) => {
    requests++;
    res.on("close", () => closed++);
    req.resume();
    req.on("end", () => answer(res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    bytesWritten: () => written,
    requests: () => requests,
    /** Connections the client gave up on (or finished): every request ends in one. */
    closed: () => closed,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Polls `condition` every 10 ms for at most `ms`; the caller asserts on the outcome, not the time. */
export async function waitUntil(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
}

/**
 * A receiver that accepts TCP connections and never says a word: an `https` URL to it stalls in the
 * TLS handshake (no ServerHello ever comes). Counts the connections made and those the client closed.
 */
export async function startSilentTcpReceiver() {
  let connections = 0;
  let closed = 0;
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => {
      closed++;
      sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    connections: () => connections,
    closed: () => closed,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
