import { deliveryConfig } from "@/lib/delivery/config";
import type { ChannelNumber, SendOutcome } from "../types";
import { classifyGraphError, networkFailure } from "./errors";

type Failure = Extract<SendOutcome, { ok: false }>;
export type GraphResult<T> = { ok: true; body: T } | Failure;

export function graphUrl(path: string): string {
  return `${deliveryConfig.graphBaseUrl}/${deliveryConfig.graphVersion}/${path.replace(/^\//, "")}`;
}

/** One Graph API call with the number's token and a hard timeout; errors come back classified. */
export async function graphFetch<T>(
  number: ChannelNumber,
  pathOrUrl: string,
  init: { method?: string; json?: unknown; form?: FormData } = {},
): Promise<GraphResult<T>> {
  const headers: Record<string, string> = { authorization: `Bearer ${number.secrets.accessToken ?? ""}` };
  let body: BodyInit | undefined;
  if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.json);
  } else if (init.form) body = init.form;
  const url = /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : graphUrl(pathOrUrl);
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? (body ? "POST" : "GET"),
      headers,
      body,
      signal: AbortSignal.timeout(deliveryConfig.graphTimeoutMs),
    });
  } catch (err) {
    return networkFailure(err);
  }
  let parsed: unknown = null;
  try {
    parsed = await res.json();
  } catch {
    if (res.ok) return { ok: false, retryable: true, error: { code: null, title: "Invalid JSON from Graph API" } };
  }
  if (!res.ok) return classifyGraphError(res.status, parsed, res.headers.get("retry-after"));
  return { ok: true, body: parsed as T };
}
