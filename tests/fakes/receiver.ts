import http from "node:http";
import type { AddressInfo } from "node:net";

/** A bot's or campaign's webhook endpoint (test-only): records every event, answers scripted statuses. */
export async function startReceiver() {
  const received: { at: number; headers: http.IncomingHttpHeaders; raw: string; body: any }[] = [];
  const statuses: number[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      received.push({ at: Date.now(), headers: req.headers, raw, body: JSON.parse(raw) });
      res.writeHead(statuses.shift() ?? 200);
      res.end("ok");
    });
  });
  // Node closes an idle keep-alive socket after 5 s; on a loaded machine the client can pick that
  // socket just as it closes and see ECONNRESET. The client, not the server, ends idle sockets here.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    failNext: (...codes: number[]) => statuses.push(...codes),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
