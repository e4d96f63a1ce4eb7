import type http from "node:http";
import type { Duplex } from "node:stream";
import { onEachHttpServer } from "./each-server";
import { ROUTE_NOT_FOUND } from "./errors";
import { MALFORMED_URL } from "./malformed-path";
import { METHOD_NOT_ALLOWED } from "./method-not-allowed";
import { API_SECURITY_HEADERS } from "./security-headers";

/**
 * Request lines Next must never see, answered on the Node server before its 'request' listeners
 * (installed by instrumentation.node.ts; the tests' server installs it too):
 *
 * - a target that is not a path (RFC 9112 §3.2: the absolute form `GET http://evil.example/x`
 *   meant for proxies, `*`): 400. Next took the absolute form's host for its own and answered
 *   its trailing-slash redirect with a 308 to `http://evil.example/…`, and `*` with a 500;
 * - a method outside the seven Next routes (TRACE, PROPFIND, QUERY…): 405 with `Allow`. Next
 *   builds a fetch Request from every request, and fetch refuses TRACE (a 500 with a stack trace
 *   in the log each time); others answered an empty 400, or a page;
 * - a method Node's parser does not know at all (TRACK, FOO): 405 too, written on the socket from
 *   the server's 'clientError' (Node's default is a bare 400), and CONNECT, which Node hands to
 *   'connect' listeners only (without one it drops the connection): 405;
 * - `/api/v1/`: the catch-all's JSON 404 (`Ruta no encontrada.`) instead of Next's trailing-slash 308.
 *
 * The answers are the API's JSON error body with its headers (respond.ts `json`, plus the
 * `nosniff` of next.config.mjs) and `Connection: close`: the body of such a request is never read.
 * `Allow` names the methods the server routes at all; a route still answers its own narrower 405.
 * Like the webhook fast lane (lib/meta-webhooks/fast-lane.ts), the server is learned from the
 * `http.server.request.start` diagnostics channel: `next start` gives the app no handle on it.
 */
export const ROUTED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const ROUTED = new Set<string>(ROUTED_METHODS);

type Refusal = { status: 400 | 404 | 405; message: string };

/** Why a request line is refused before Next, or null when Next may route it. */
export function requestLineRefusal(method: string | undefined, target: string | undefined): Refusal | null {
  if (!target?.startsWith("/")) return { status: 400, message: MALFORMED_URL };
  if (!method || !ROUTED.has(method)) return { status: 405, message: METHOD_NOT_ALLOWED };
  // The API's root with a trailing slash: Next would answer its trailing-slash 308 (to `/api/v1`,
  // which then answers this same 404); a client probing the API gets the JSON answer at once.
  if (target === "/api/v1/" || target.startsWith("/api/v1/?")) return { status: 404, message: ROUTE_NOT_FOUND };
  return null;
}

const REASONS: Record<number, string> = { 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed" };

/** The status, headers and body of a refusal (the same bytes over a ServerResponse or a raw socket). */
function answerOf({ status, message }: Refusal): { status: number; headers: Record<string, string>; body: Buffer } {
  const body = Buffer.from(JSON.stringify({ message }));
  const headers: Record<string, string> = {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    ...API_SECURITY_HEADERS,
    "x-content-type-options": "nosniff",
    "content-length": String(body.byteLength),
    connection: "close",
  };
  if (status === 405) headers.allow = ROUTED_METHODS.join(", ");
  return { status, headers, body };
}

/** Writes a refusal on a socket whose request Node's parser did not turn into a request, then closes it. */
function writeRaw(socket: Duplex, refusal: Refusal) {
  const { status, headers, body } = answerOf(refusal);
  const head = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join("");
  socket.end(Buffer.concat([Buffer.from(`HTTP/1.1 ${status} ${REASONS[status]}\r\n${head}\r\n`), body]));
}

// Node's own answers to the parser's other errors (Node's _http_server.js), which a 'clientError'
// listener replaces: kept as they were when this is the server's only listener.
const NODE_DEFAULTS: Record<string, string> = {
  HPE_HEADER_OVERFLOW: "431 Request Header Fields Too Large",
  HPE_CHUNK_EXTENSIONS_OVERFLOW: "413 Payload Too Large",
  ERR_HTTP_REQUEST_TIMEOUT: "408 Request Timeout",
};

type Listener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

/** Puts the guard in front of `server`'s 'request' listeners and answers its unparsed methods (exported for tests). */
export function installRequestLineGuard(server: http.Server) {
  const next = server.listeners("request") as Listener[];
  server.removeAllListeners("request");
  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    const refusal = requestLineRefusal(req.method, req.url);
    if (!refusal) {
      for (const listener of next) listener.call(server, req, res);
      return;
    }
    const { status, headers, body } = answerOf(refusal);
    res.writeHead(status, headers);
    res.end(body);
  });

  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    const answered = (socket as Duplex & { _httpMessage?: http.ServerResponse })._httpMessage?.headersSent;
    if (err.code === "HPE_INVALID_METHOD" && socket.writable && !answered) {
      writeRaw(socket, { status: 405, message: METHOD_NOT_ALLOWED });
      return;
    }
    // Another listener (if any) decides the rest; alone, this one does what Node would have done.
    if (server.listenerCount("clientError") > 1) return;
    if (socket.writable && !answered) {
      socket.write(`HTTP/1.1 ${NODE_DEFAULTS[err.code ?? ""] ?? "400 Bad Request"}\r\nConnection: close\r\n\r\n`);
    }
    socket.destroy(err);
  });

  // Only when nothing else takes CONNECT (Next does not): answered rather than dropped.
  if (server.listenerCount("connect") === 0) {
    server.on("connect", (_req: http.IncomingMessage, socket: Duplex) => writeRaw(socket, { status: 405, message: METHOD_NOT_ALLOWED }));
  }
}

/** Guards every HTTP server of this process from its first request on (once per process). */
export function startRequestLineGuard() {
  onEachHttpServer("requestLineGuard", installRequestLineGuard);
}
