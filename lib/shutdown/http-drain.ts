import diagnostics from "node:diagnostics_channel";
import type http from "node:http";
import net from "node:net";
import type { AddressInfo, Socket } from "node:net";
import { listenBacklog } from "./listen-backlog";
import { portClosedEverywhere } from "./cluster-port";

/**
 * The HTTP half of a graceful shutdown under `next start`, which gives the app no handle on its
 * `http.Server`. Node publishes every request on the `http.server.request.start` diagnostics
 * channel with its server, socket and response (a public API, no patching of Next), so this
 * module learns the server and the requests in flight from there.
 *
 * Draining (docs/operations.md, "Shutdown"):
 * - the listening socket closes once the connections already waiting in its backlog are
 *   accepted (stopAccepting, listen-backlog.ts): new connections are refused, so a client knows its request was
 *   never sent and can go to another replica;
 * - every request in flight is answered; answers whose headers are not out yet carry
 *   `Connection: close`, and so does any request still arriving on an open connection, so no
 *   client writes another request on a connection we are about to close;
 * - idle keep-alive connections are closed only after a grace period. Closing them at once (what
 *   `server.close()` does since Node 19) races a client that has just written its next request on
 *   one: the bytes sit unread in the kernel, the close turns into a reset, and that request may or
 *   may not have been meant to commit. A looping client sends within milliseconds of an answer,
 *   gets `Connection: close` and leaves by itself; what is still idle after the grace is a parked
 *   pool connection.
 * - a Server-Sent Events answer that ends while draining closes its connection right away: its
 *   client reconnects only after the stream's `retry:` delay, so there is no race to lose.
 */

type Tracked = { response: http.ServerResponse; socket: Socket };

type State = { subscribed: boolean; servers: Set<http.Server>; inFlight: Set<Tracked>; draining: boolean; changed: Set<() => void> };

// On globalThis: dev reloads modules, and a second subscription would count every request twice.
const g = globalThis as unknown as { __waHttpDrain?: State };

function state(): State {
  return (g.__waHttpDrain ??= { subscribed: false, servers: new Set(), inFlight: new Set(), draining: false, changed: new Set() });
}

function isEventStream(response: http.ServerResponse): boolean {
  return String(response.getHeader("content-type") ?? "").startsWith("text/event-stream");
}

function onRequestStart(message: unknown) {
  const { response, socket, server } = message as { response: http.ServerResponse; socket: Socket; server: http.Server };
  const s = state();
  s.servers.add(server);
  const tracked: Tracked = { response, socket };
  s.inFlight.add(tracked);
  if (s.draining) response.setHeader("connection", "close");
  // 'close' fires once the answer is written or the connection died: either way it is done.
  response.once("close", () => {
    s.inFlight.delete(tracked);
    if (s.draining && isEventStream(response)) socket.end();
    for (const notify of s.changed) notify();
  });
}

/** Starts following requests (once per process; instrumentation calls it before any request). */
export function trackHttpRequests() {
  const s = state();
  if (s.subscribed) return;
  s.subscribed = true;
  diagnostics.subscribe("http.server.request.start", onRequestStart);
}

export function inFlightCount(): number {
  return state().inFlight.size;
}

function waitUntil(done: () => boolean): Promise<void> {
  const s = state();
  return new Promise((resolve) => {
    const check = () => {
      if (!done()) return;
      s.changed.delete(check);
      resolve();
    };
    s.changed.add(check);
    check();
  });
}

/** Resolves once every connection of `server` has ended (the listening socket must be closed). */
function serverClosed(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    // net.Server's close, not http.Server's: the latter also destroys idle keep-alive connections
    // at once, the race described above. This one only stops listening; its callback runs when
    // the last connection has ended (or at once with an error if the server was not listening).
    net.Server.prototype.close.call(server, () => resolve());
  });
}

/**
 * One more turn of the event loop, poll phase included (an immediate queued from an immediate
 * runs in the next iteration's check phase, after its poll phase).
 */
function afterNextPollPhase(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}

/**
 * Stops accepting connections; from then on every answer not yet started closes its connection.
 * Resolves once the listening socket is closed, with the promise of every connection's end.
 *
 * Not at once: connections whose handshake the kernel has completed wait in the listen backlog
 * until Node accepts them, and closing the listening socket resets them after their clients
 * wrote a request (listen-backlog.ts). So the socket closes once its backlog is empty (checked
 * and closed in one synchronous step, after a poll phase), or after `backlogWaitMs` at most;
 * where the backlog cannot be read, after one poll phase. Until then answers keep their
 * connections open: a client told to leave would reconnect at once and refill the backlog.
 */
export async function stopAccepting({ backlogWaitMs }: { backlogWaitMs: number }): Promise<{ closed: Promise<void>; waited: number }> {
  const s = state();
  const ports = [...s.servers].map((server) => (server.address() as AddressInfo | null)?.port).filter((p) => p !== undefined);
  const began = Date.now();
  for (;;) {
    await afterNextPollPhase();
    const queued = ports.map(listenBacklog);
    if (queued.every((n) => !n) || Date.now() - began > backlogWaitMs) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const closed = Promise.all([...s.servers].map(serverClosed)).then(() => {});
  // In the cluster the port stays open until every web process has closed (cluster-port.ts).
  await portClosedEverywhere(backlogWaitMs);
  s.draining = true;
  for (const { response } of s.inFlight) if (!response.headersSent) response.setHeader("connection", "close");
  return { closed, waited: Date.now() - began };
}

/**
 * After stopAccepting(): resolves when every request has been answered and every connection has
 * ended. `idleGraceMs`: how long idle keep-alive connections are left to their clients before
 * they are closed.
 */
export async function finishRequests({ closed, idleGraceMs }: { closed: Promise<void>; idleGraceMs: number }): Promise<void> {
  const s = state();
  await waitUntil(() => s.inFlight.size === 0);
  const graceOver = new Promise<"grace">((resolve) => setTimeout(() => resolve("grace"), idleGraceMs).unref());
  if ((await Promise.race([closed, graceOver])) === "grace") {
    // After a poll phase: a request already in the kernel's buffer is read (its connection is
    // then active, not idle) before the idle connections are closed.
    await afterNextPollPhase();
    for (const server of s.servers) server.closeIdleConnections();
  }
  await closed;
  await waitUntil(() => s.inFlight.size === 0);
}
