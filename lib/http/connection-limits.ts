import diagnostics from "node:diagnostics_channel";
import type http from "node:http";
import type { Socket } from "node:net";

/**
 * What one connection may cost the server before it has earned an answer, under `next start`
 * (which gives the app no handle on its `http.Server`: both are reached through Node's public
 * diagnostics channels, as lib/shutdown/http-drain.ts and lib/meta-webhooks/fast-lane.ts do).
 *
 * 1. An answer given while the request's body is still arriving closes the connection once the
 *    answer is written (`Connection: close`). Node would otherwise read the rest of the body and
 *    throw it away, to keep the connection for a next request: with an endless chunked body sent
 *    by anyone (the 401 of a route that never reads it, the webhook's 413), that is the server
 *    reading junk at full speed for minutes (nginx answers such a request and closes, too). Any
 *    status, not only 401/403/413: whatever the route decided without the body, keeping the
 *    connection would mean reading it. Clients get the answer first (curl and fetch alike: the
 *    close follows the written answer, after a short lingering close, closeAfterAnswer).
 * 2. Headers must be complete within HTTP_HEADERS_TIMEOUT_S, a whole request (body included)
 *    within HTTP_REQUEST_TIMEOUT_S, idle keep-alive connections close after
 *    HTTP_KEEP_ALIVE_TIMEOUT_S; Node's own limits are 60 s and 300 s. Node checks them every
 *    30 s (its `connectionsCheckingInterval`, fixed when the server is made); the check is made
 *    every second here, so a limit in seconds means what it says.
 */
export type ConnectionLimits = { headersTimeoutS: number; requestTimeoutS: number; keepAliveTimeoutS: number };

/** How often a server's incomplete requests are checked against the limits. */
const CHECK_EVERY_MS = 1000;

// On globalThis: dev reloads modules, and a second subscription would wrap each answer twice.
const g = globalThis as unknown as {
  __waConnectionLimits?: { subscribed: boolean; limits: () => ConnectionLimits };
  __waLimitedServers?: WeakSet<http.Server>;
};
/** Servers whose limits are set (on globalThis, as the subscription is). */
const limited = (g.__waLimitedServers ??= new WeakSet());

/** Applies the limits to every HTTP server of this process (once per process, before it serves). */
export function limitHttpConnections(limits: () => ConnectionLimits) {
  const state = (g.__waConnectionLimits ??= { subscribed: false, limits });
  state.limits = limits;
  if (state.subscribed) return;
  state.subscribed = true;
  const limit = (server: unknown) => {
    if (isHttpServer(server) && !limited.has(server)) applyTimeouts(server, state.limits());
  };
  // A new connection: its server gets its limits before the first request's headers are read.
  diagnostics.subscribe("net.server.socket", (message) => limit((message as { socket: Socket & { server?: unknown } }).socket.server));
  diagnostics.subscribe("http.server.request.start", (message) => {
    const { request, response, server } = message as { request: http.IncomingMessage; response: http.ServerResponse; server: unknown };
    // Connections accepted before this module subscribed (Next listens before instrumentation runs).
    limit(server);
    closeWhenBodyUnread(request, response);
  });
}

function isHttpServer(server: unknown): server is http.Server {
  return typeof server === "object" && server !== null && "headersTimeout" in server && "requestTimeout" in server;
}

/** The limits on one server (exported for tests that serve with a server of their own). */
export function applyTimeouts(server: http.Server, limits: ConnectionLimits) {
  limited.add(server);
  server.headersTimeout = limits.headersTimeoutS * 1000;
  server.requestTimeout = limits.requestTimeoutS * 1000;
  server.keepAliveTimeout = limits.keepAliveTimeoutS * 1000;
  checkEverySecond(server);
}

/**
 * Node runs its check of the two timeouts from an interval timer kept on the server under a
 * symbol (Node's _http_server.js, `kConnectionsCheckingInterval`), made at listen with the period
 * given to createServer (30 s by default). The same check, the same limits, every second: the
 * timer is replaced by one of that period around the same function. If a Node version keeps it
 * elsewhere, nothing changes but the period.
 */
function checkEverySecond(server: http.Server) {
  const key = Object.getOwnPropertySymbols(server).find((s) => s.description === "http.server.connectionsCheckingInterval");
  if (!key) return;
  const holder = server as unknown as Record<symbol, (NodeJS.Timeout & { _onTimeout?: () => void }) | undefined>;
  const timer = holder[key];
  const check = timer?._onTimeout;
  if (!timer || typeof check !== "function") return;
  clearInterval(timer);
  holder[key] = setInterval(check, CHECK_EVERY_MS).unref();
}

type WriteHead = http.ServerResponse["writeHead"];

/**
 * Puts `Connection: close` on `res`'s header if it is written while `req`'s body has not all
 * arrived. Every answer's head goes through writeHead (an implicit head too: Node calls it from
 * the first write or end), so that is where the body's state is read. With that header, Node
 * ends the connection as soon as the answer is written instead of draining the body.
 */
export function closeWhenBodyUnread(req: http.IncomingMessage, res: http.ServerResponse) {
  const writeHead = res.writeHead as WriteHead;
  res.writeHead = function (this: http.ServerResponse, ...args: Parameters<WriteHead>) {
    if (!req.complete && !this.headersSent) closeAfterAnswer(req, this);
    return writeHead.apply(this, args);
  } as WriteHead;
}

/** How long a connection closed with its body unread stays open, reading nothing, after its answer. */
export const LINGER_MS = 250;

/**
 * Ends the connection once `res` is written (`Connection: close`), with a short lingering close.
 * Closing a socket while the client's bytes wait unread makes the kernel send a reset at once,
 * and a client still writing its body may then lose the answer it was just sent (its next write
 * fails before it has read): one endless upload in a few got no status at all on a loaded
 * machine. So, as nginx's lingering close does, the answer goes out followed by a FIN, the socket
 * stops reading (the client's writes then wait on a full window, which costs the server nothing)
 * and is destroyed LINGER_MS later, time enough for the client to read its answer.
 */
export function closeAfterAnswer(req: http.IncomingMessage, res: http.ServerResponse) {
  res.setHeader("connection", "close");
  const socket = (res.socket ?? req.socket) as (Socket & { destroySoon?: () => void; _handle?: { readStop?: () => number } | null }) | null;
  // No socket: the client has already gone, and with it the connection.
  if (!socket) return;
  // Node's server calls destroySoon once an answer with `Connection: close` is written.
  socket.destroySoon = function (this: typeof socket) {
    if (this.writable) this.end();
    // The TCP handle itself: Node's HTTP parser reads from it directly, so pause() would not stop it.
    this._handle?.readStop?.();
    setTimeout(() => this.destroy(), LINGER_MS).unref();
  };
}
