import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { NextRequest } from "next/server";
import { proxy } from "@/proxy";
import { installRequestLineGuard } from "@/lib/http/request-line-guard";

/**
 * Serves the real `app/api/v1/** /route.ts` handlers over HTTP for the integration tests, with
 * Next's routing rules that matter here (static segments before dynamic `[param]` ones). The
 * handlers only use the Web Request/Response API, so they run the same under `next start`
 * (which the Playwright suite exercises).
 */
type RouteModule = Record<string, (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>>;
type Route = { pattern: RegExp; keys: string[]; catchAll: Set<string>; staticCount: number; load: () => Promise<RouteModule> };

const modules = import.meta.glob<RouteModule>("/app/api/v1/**/route.ts");

const routes: Route[] = Object.entries(modules)
  .map(([file, load]) => {
    const segments = file
      .replace(/^\/app/, "")
      .replace(/\/route\.ts$/, "")
      .split("/")
      .filter(Boolean);
    const keys: string[] = [];
    const catchAll = new Set<string>();
    let staticCount = 0;
    const source = segments
      .map((seg) => {
        const rest = /^\[\.\.\.(\w+)\]$/.exec(seg);
        if (rest) {
          keys.push(rest[1]);
          catchAll.add(rest[1]);
          return "(.+)";
        }
        const dyn = /^\[(\w+)\]$/.exec(seg);
        if (dyn) {
          keys.push(dyn[1]);
          return "([^/]+)";
        }
        staticCount++;
        return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      })
      .join("/");
    return { pattern: new RegExp(`^/${source}/?$`), keys, catchAll, staticCount, load };
  })
  .sort((a, b) => b.staticCount - a.staticCount);

async function dispatch(req: Request): Promise<Response> {
  const { pathname } = new URL(req.url);
  // Like Next: proxy.ts runs before routing; an answer other than next() ends the request. (Next runs it
  // only for API paths holding a "%"; for the others it answers next() anyway.)
  if (pathname.startsWith("/api/")) {
    // Without the body: the handler still has to read it (proxy.ts never does).
    const early = await proxy(new NextRequest(req.url, { method: req.method, headers: req.headers }));
    if (!early.headers.has("x-middleware-next")) return early;
  }
  for (const route of routes) {
    const m = route.pattern.exec(pathname);
    if (!m) continue;
    const mod = await route.load();
    const handler = mod[req.method] ?? (req.method === "HEAD" ? mod.GET : undefined);
    if (!handler) {
      // Like Next (auto-implement-methods.js): OPTIONS answers 204 with the route's methods, others an empty 405.
      if (req.method !== "OPTIONS") return new Response(null, { status: 405 });
      const allow = new Set(["OPTIONS", ...Object.keys(mod).filter((m) => /^[A-Z]+$/.test(m))]);
      if (allow.has("GET")) allow.add("HEAD");
      return new Response(null, { status: 204, headers: { allow: [...allow].sort().join(", ") } });
    }
    // Like Next: a `[...rest]` segment arrives as the array of its decoded segments.
    const params: Record<string, string | string[]> = {};
    try {
      route.keys.forEach((k, i) => {
        params[k] = route.catchAll.has(k) ? m[i + 1].split("/").map(decodeURIComponent) : decodeURIComponent(m[i + 1]);
      });
    } catch {
      // Malformed percent-encoding never reaches a handler under Next 16 either: `next start`
      // answers this bare 500 (checked with curl), unless proxy.ts answered first.
      return new Response("Internal Server Error", { status: 500, headers: { "content-type": "text/plain" } });
    }
    return handler(req, { params: Promise.resolve(params) });
  }
  return new Response(JSON.stringify({ message: "Not found" }), { status: 404 });
}

export type TestServer = { url: string; close: () => Promise<void> };

export async function startServer(): Promise<TestServer> {
  const server = http.createServer(async (inc, res) => {
    try {
      const url = `http://${inc.headers.host}${inc.url}`;
      const hasBody = inc.method !== "GET" && inc.method !== "HEAD";
      const headers = new Headers();
      for (const [k, v] of Object.entries(inc.headers)) {
        if (Array.isArray(v)) v.forEach((x) => headers.append(k, x));
        else if (v !== undefined) headers.set(k, v);
      }
      // Like `next start`: the socket's address, unless the request already carries the header.
      if (!headers.has("x-forwarded-for") && inc.socket.remoteAddress) headers.set("x-forwarded-for", inc.socket.remoteAddress);
      // Like Next: the request's signal aborts when the client goes away (ends SSE streams).
      const abort = new AbortController();
      res.on("close", () => {
        if (!res.writableFinished) abort.abort();
      });
      const request = new Request(url, {
        method: inc.method,
        headers,
        signal: abort.signal,
        body: hasBody ? (Readable.toWeb(inc) as ReadableStream) : undefined,
        // @ts-expect-error Node's fetch needs duplex for streamed bodies
        duplex: "half",
      });
      const response = await dispatch(request);
      res.statusCode = response.status;
      response.headers.forEach((v, k) => res.setHeader(k, v));
      // A handler may answer without reading the body (refused before parsing it). The unread
      // rest then holds the socket paused, and the client's next request on that kept-alive
      // connection would never be read: close it after this answer, as servers do.
      if (hasBody && !inc.readableEnded) res.setHeader("connection", "close");
      if (response.body) {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          if (abort.signal.aborted) break;
          res.write(chunk);
        }
      }
      res.end();
    } catch (err) {
      console.error(err);
      res.statusCode = 599;
      res.end(String(err));
    }
  });
  // Like `next start` (instrumentation.node.ts): request lines Next must never see are answered first.
  installRequestLineGuard(server);
  // Node closes an idle keep-alive socket after 5 s; on a loaded machine the client can pick that
  // socket just as it closes and see ECONNRESET. The client, not the server, ends idle sockets here.
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // Every test of the file is done: sockets still open (kept alive, or a refused upload whose body
        // was never read) would hold close() for the whole keep-alive timeout.
        server.closeAllConnections();
      }),
  };
}
