import type http from "node:http";
import { onEachHttpServer } from "@/lib/http/each-server";
import { closeAfterAnswer } from "@/lib/http/connection-limits";
import { ApiError } from "@/lib/http/errors";
import { toErrorResponse } from "@/lib/http/respond";
import { withAddressFailureBudget } from "@/lib/rate-limit/failures";
import { MAX_WEBHOOK_BYTES, receiveSignedWebhook, webhookReceived } from "./whatsapp-service";
import { admitWebhook, ClientGoneError } from "./admission";

/**
 * Meta's signed webhook posts answered before Next's request pipeline (WEBHOOK_FAST_LANE, on by
 * default under `next start`).
 *
 * Why: a status webhook is the service's most frequent request (three per message sent) and its
 * own work is small: measured outside Next, verifying, parsing and applying one status costs
 * 0.24–0.28 ms of CPU, while `next start` spends about 0.83 ms on a POST with a body to a route
 * that does nothing with it (routing, Web Request and Response objects, stream piping;
 * bench/log/2026-11-26-status-trigger-when.md, "The ingest"). One Node process then tops out near 900 statuses a second; here it does not.
 *
 * How: `next start` gives the app no handle on its `http.Server`, but Node announces every request
 * with its server on the `http.server.request.start` diagnostics channel (a public API, also used by
 * lib/shutdown/http-drain.ts) before the server's 'request' listeners run. The first time a server
 * is seen, its 'request' listeners (Next's) are put behind one that takes `POST
 * /api/v1/webhooks/whatsapp` (any query string) itself and hands every other request to them
 * unchanged. The work is the route's own (`receiveSignedWebhook`, lib/meta-webhooks/whatsapp-service.ts),
 * and so are the answers: the same body, status and headers (`json`, `toErrorResponse`, the
 * caller address's failure budget), plus the header next.config.mjs adds to every answer; only
 * Next's `Vary` (a hint for its own caches) is left out, and the body goes with a Content-Length
 * rather than chunked. The graceful shutdown drains these requests like any other (it follows the
 * same channel).
 */
export const FAST_LANE_PATH = "/api/v1/webhooks/whatsapp";

type Listener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** What next.config.mjs `headers()` adds to every answer Next gives; the fast lane adds it too. */
const NEXT_CONFIG_HEADERS: Readonly<Record<string, string>> = { "x-content-type-options": "nosniff" };

/** Starts taking Meta's webhook posts on every HTTP server of this process (once per process). */
export function startWebhookFastLane() {
  onEachHttpServer("webhookFastLane", installWebhookFastLane);
}

/** Puts the fast lane in front of `server`'s 'request' listeners (exported for tests). */
export function installWebhookFastLane(server: http.Server) {
  const next = server.listeners("request") as Listener[];
  server.removeAllListeners("request");
  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.method === "POST" && pathOf(req.url) === FAST_LANE_PATH) {
      void answerWebhook(req, res);
      return;
    }
    for (const listener of next) listener.call(server, req, res);
  });
}

function pathOf(url: string | undefined): string {
  const q = url?.indexOf("?") ?? -1;
  return q === -1 ? (url ?? "") : url!.slice(0, q);
}

async function answerWebhook(req: http.IncomingMessage, res: http.ServerResponse) {
  let answer: Response;
  // Aborted when the client hangs up before its answer: work not yet begun is then dropped
  // (a backlog of retries is not worked through for clients that have given up).
  const gone = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) gone.abort();
  });
  let place: { release: () => void } | undefined;
  try {
    // A place among the posts in flight (admission.ts) before anything is read: past the
    // limit, 503 at once, and the body is never read (the answer closes the connection).
    place = admitWebhook();
    const raw = await readBody(req, MAX_WEBHOOK_BYTES);
    const data = await receiveSignedWebhook({
      raw,
      signature: headerValue(req.headers["x-hub-signature-256"]),
      // Only a body no cached secret signed spends the caller address's budget, as on the route;
      // the address is read as the route reads it (lib/http/client-address.ts), from the
      // X-Forwarded-For that `next start` completes with the socket's address when it is absent.
      onUnknownSignature: (check) => withAddressFailureBudget(asWebRequest(req), check),
      signal: gone.signal,
    });
    answer = webhookReceived(data);
  } catch (err) {
    if (err instanceof ClientGoneError || gone.signal.aborted) {
      place?.release();
      return;
    }
    // The request's method and route, for the log line of an unexpected error (as the route's).
    answer = toErrorResponse(err, { req: new Request(`http://localhost${FAST_LANE_PATH}`, { method: "POST" }) });
  }
  place?.release();
  await send(req, res, answer);
}

/**
 * The body, refused with 413 past `max` bytes (declared or sent), as readBodyLimited does. What
 * is left of a refused body is never read: the answer closes the connection instead (send).
 */
function readBody(req: http.IncomingMessage, max: number): Promise<Uint8Array> {
  if (Number(req.headers["content-length"] ?? "0") > max) return Promise.reject(ApiError.tooLarge());
  if (req.socket.destroyed) return Promise.reject(new ClientGoneError());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > max) {
        req.removeAllListeners("data");
        req.pause();
        reject(ApiError.tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.once("end", () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
    req.once("error", reject);
    // A client that hangs up mid-body: neither 'end' nor 'error' need come.
    req.once("close", () => {
      if (!req.complete) reject(new ClientGoneError());
    });
  });
}

/** A repeated header as the Web API joins it. */
function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The headers of `req` as a Web Request (no body): what the failure budget reads. */
function asWebRequest(req: http.IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, headerValue(value)!);
  }
  if (!headers.has("x-forwarded-for") && req.socket.remoteAddress) headers.set("x-forwarded-for", req.socket.remoteAddress);
  return new Request(`http://${headers.get("host") ?? "localhost"}${req.url ?? "/"}`, { method: "POST", headers });
}

async function send(req: http.IncomingMessage, res: http.ServerResponse, answer: Response) {
  const body = Buffer.from(await answer.arrayBuffer());
  res.statusCode = answer.status;
  answer.headers.forEach((value, name) => res.setHeader(name, value));
  for (const [name, value] of Object.entries(NEXT_CONFIG_HEADERS)) res.setHeader(name, value);
  // Answered before the body was all read (413, 503 when shed): the connection ends with the
  // answer rather than reading the rest (as lib/http/connection-limits.ts does for every server).
  if (!req.complete) closeAfterAnswer(req, res);
  res.setHeader("content-length", body.byteLength);
  res.end(body);
}
