import http from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";

/**
 * A local stand-in for the Graph API's send endpoint (POST /{version}/{phone_number_id}/messages),
 * answering like the Cloud API and logging when each number was called, so the bench can measure
 * the worker's drain rate and check that a paced number never went faster than its limit.
 */
export async function startFakeGraph() {
  const calls = new Map<string, number[]>();
  const server = http.createServer((req, res) => {
    const m = /^\/v[\d.]+\/([^/]+)\/messages$/.exec((req.url ?? "").split("?")[0]);
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (req.method !== "POST" || !m) {
        res.writeHead(404, { "content-type": "application/json" });
        return res.end(JSON.stringify({ error: { message: "Unknown path", code: 100 } }));
      }
      const list = calls.get(m[1]) ?? [];
      list.push(performance.now());
      calls.set(m[1], list);
      let to = "";
      try {
        to = JSON.parse(body).to ?? "";
      } catch {}
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          messaging_product: "whatsapp",
          contacts: [{ input: to, wa_id: to }],
          messages: [{ id: `wamid.${randomBytes(12).toString("hex")}` }],
        }),
      );
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    reset: () => calls.clear(),
    total: () => [...calls.values()].reduce((n, l) => n + l.length, 0),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Calls per second from first to last call, and the most calls seen in any 1-second window. */
export function rateOf(times: number[]): { count: number; perSecond: number; maxInAnySecond: number } {
  if (times.length < 2) return { count: times.length, perSecond: 0, maxInAnySecond: times.length };
  const sorted = [...times].sort((a, b) => a - b);
  let max = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i] - sorted[j] >= 1000) j++;
    max = Math.max(max, i - j + 1);
  }
  const span = (sorted[sorted.length - 1] - sorted[0]) / 1000;
  return { count: sorted.length, perSecond: Math.round((sorted.length - 1) / span), maxInAnySecond: max };
}
