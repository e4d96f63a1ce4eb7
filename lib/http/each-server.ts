import diagnostics from "node:diagnostics_channel";
import type http from "node:http";

type Installed = { subscribed: boolean; servers: WeakSet<http.Server> };
// On globalThis: dev reloads modules, and a second subscription would wrap a server twice.
const g = globalThis as unknown as { __waEachServer?: Record<string, Installed> };

/**
 * Runs `install` once on every HTTP server of this process, from its first request on. `next
 * start` gives the app no handle on its server; Node publishes each request with its server on
 * the `http.server.request.start` diagnostics channel (a public API). `name` keeps one
 * subscription per feature, whatever the number of calls.
 */
export function onEachHttpServer(name: string, install: (server: http.Server) => void) {
  const all = (g.__waEachServer ??= {});
  const state = (all[name] ??= { subscribed: false, servers: new WeakSet() });
  if (state.subscribed) return;
  state.subscribed = true;
  diagnostics.subscribe("http.server.request.start", (message) => {
    const { server } = message as { server: http.Server };
    if (state.servers.has(server)) return;
    state.servers.add(server);
    install(server);
  });
}
