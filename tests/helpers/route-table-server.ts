import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

/**
 * Serves a fixed table of the real route handlers over node:http, for tests that run the API in a
 * process of its own (crash-server.ts, event-server.ts). Outside Vite there is no
 * import.meta.glob, so each such process imports the few routes it needs and lists them here.
 * Like Next: the request's signal aborts when the client goes away, and bodies are streamed.
 */
export type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
export type RouteEntry = { method: string; pattern: RegExp; handler: Handler; param?: string };

export function serveRoutes(routes: RouteEntry[]): Promise<number> {
  const server = http.createServer(async (inc, res) => {
    const url = `http://${inc.headers.host}${inc.url}`;
    const { pathname } = new URL(url);
    const route = routes.find((r) => r.pattern.test(pathname) && r.method === inc.method);
    if (!route) {
      res.statusCode = 404;
      return res.end();
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(inc.headers)) if (typeof v === "string") headers.set(k, v);
    const abort = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) abort.abort();
    });
    const hasBody = inc.method !== "GET" && inc.method !== "HEAD";
    const request = new Request(url, {
      method: inc.method,
      headers,
      signal: abort.signal,
      body: hasBody ? (Readable.toWeb(inc) as ReadableStream) : undefined,
      // @ts-expect-error Node's fetch needs duplex for streamed bodies
      duplex: "half",
    });
    const m = route.pattern.exec(pathname)!;
    const params: Record<string, string> = route.param && m[1] ? { [route.param]: decodeURIComponent(m[1]) } : {};
    const response = await route.handler(request, { params: Promise.resolve(params) });
    res.statusCode = response.status;
    response.headers.forEach((v, k) => res.setHeader(k, v));
    if (response.body) {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        if (abort.signal.aborted) break;
        res.write(chunk);
      }
    }
    res.end();
  });
  // Node closes an idle keep-alive socket after 5 s; on a loaded machine the client can pick that
  // socket just as it closes and see ECONNRESET. The client, not the server, ends idle sockets here.
  server.keepAliveTimeout = 120_000;
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}
