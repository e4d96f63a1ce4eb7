/** A tiny HTTP client for the integration tests: JSON in, `{status, body, headers}` out. */
export type ApiResponse<T = any> = { status: number; body: T; headers: Headers; text: string };

export function apiClient(baseUrl: string, token?: string) {
  async function call<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse<T>> {
    const h: Record<string, string> = { ...headers };
    if (token && !("authorization" in h)) h.authorization = `Bearer ${token}`;
    let payload: BodyInit | undefined;
    if (body instanceof FormData || typeof body === "string") payload = body as BodyInit;
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      h["content-type"] ??= "application/json";
    }
    const res = await fetch(baseUrl + path, { method, headers: h, body: payload });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {}
    return { status: res.status, body: parsed as T, headers: res.headers, text };
  }
  return {
    get: <T = any>(path: string, headers?: Record<string, string>) => call<T>("GET", path, undefined, headers),
    post: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>("POST", path, body, headers),
    put: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>("PUT", path, body, headers),
    patch: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>("PATCH", path, body, headers),
    delete: <T = any>(path: string, body?: unknown, headers?: Record<string, string>) => call<T>("DELETE", path, body, headers),
    raw: call,
  };
}
