import type { ChannelNumber, SendOutcome } from "../types";
import { request, type Dispatcher } from "undici";
import { classifyGraphError, isTimeout, networkFailure } from "./errors";

type Failure = Extract<SendOutcome, { ok: false }>;
export type GraphResult<T> = { ok: true; body: T } | Failure;

/** Where the Graph API is and how long a call may take: handed in by the caller (delivery settings). */
export type GraphSettings = { baseUrl: string; version: string; timeoutMs: number };

export function graphUrl(graph: GraphSettings, path: string): string {
  return `${graph.baseUrl}/${graph.version}/${path.replace(/^\//, "")}`;
}

/**
 * One Graph API call with the number's token and a hard timeout; errors come back classified.
 * JSON calls (every send) go through undici's `request`, Node's own HTTP client without the
 * WHATWG fetch layer: fetch's Request/stream objects were the largest part of the worker's CPU
 * per message (bench/log/2026-11-22-findings.md, finding 4). Multipart uploads keep fetch for its FormData encoder.
 */
export async function graphFetch<T>(
  graph: GraphSettings,
  number: ChannelNumber,
  pathOrUrl: string,
  init: { method?: string; json?: unknown; form?: FormData } = {},
): Promise<GraphResult<T>> {
  const headers: Record<string, string> = { authorization: `Bearer ${number.secrets.accessToken ?? ""}` };
  const url = /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : graphUrl(graph, pathOrUrl);
  const timeoutMs = graph.timeoutMs;
  let status: number;
  let retryAfter: string | null;
  let read: () => Promise<unknown>;
  try {
    if (init.form) {
      const res = await fetch(url, { method: init.method ?? "POST", headers, body: init.form, signal: AbortSignal.timeout(timeoutMs) });
      [status, retryAfter, read] = [res.status, res.headers.get("retry-after"), () => res.json()];
    } else {
      if (init.json !== undefined) headers["content-type"] = "application/json";
      const res = await request(url, {
        method: (init.method ?? (init.json !== undefined ? "POST" : "GET")) as Dispatcher.HttpMethod,
        headers,
        body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const header = res.headers["retry-after"];
      [status, retryAfter, read] = [res.statusCode, Array.isArray(header) ? header[0] : (header ?? null), () => res.body.json()];
    }
  } catch (err) {
    return networkFailure(err);
  }
  const ok = status >= 200 && status < 300;
  let parsed: unknown = null;
  try {
    parsed = await read();
  } catch (err) {
    if (ok)
      return isTimeout(err)
        ? networkFailure(err)
        : { ok: false, retryable: true, error: { code: null, title: "Invalid JSON from Graph API" } };
  }
  if (!ok) return classifyGraphError(status, parsed, retryAfter);
  return { ok: true, body: parsed as T };
}
