import type { FieldErrors } from "./types";

/** Typed fetch for /api/v1 from the browser: same-origin cookie session, the ruled error body. */
export type { FieldErrors };

export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldErrors = {},
  ) {
    super(message);
    this.name = "ApiRequestError";
  }
}

type Options = { method?: string; body?: unknown; formData?: FormData; signal?: AbortSignal; headers?: Record<string, string> };

export async function apiFetch<T>(path: string, opts: Options = {}): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json", ...opts.headers };
  let body: BodyInit | undefined;
  if (opts.formData) body = opts.formData;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers["content-type"] = "application/json";
  }
  let res: Response;
  try {
    res = await fetch(path, { method: opts.method ?? "GET", headers, body, credentials: "same-origin", signal: opts.signal });
  } catch (err) {
    if ((err as Error).name === "AbortError") throw err;
    throw new ApiRequestError(0, (err as Error).message || "Network error");
  }
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {}
  if (!res.ok) {
    const b = (parsed ?? {}) as { message?: string; errors?: FieldErrors };
    throw new ApiRequestError(res.status, b.message || `HTTP ${res.status}`, b.errors ?? {});
  }
  return parsed as T;
}

export function qs(params: Record<string, string | number | undefined | null>): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") sp.set(k, String(v));
  const s = sp.toString();
  return s ? `?${s}` : "";
}
