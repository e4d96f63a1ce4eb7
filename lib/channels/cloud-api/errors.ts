import type { SendOutcome } from "../types";

type Failure = Extract<SendOutcome, { ok: false }>;

/**
 * Graph error codes worth another attempt: throttling (130429 throughput, 131056 pair rate,
 * 4/80007 app and account limits) and transient service trouble (131000, 131016, 1, 2).
 * Everything else the API answers (131047 re-engagement window, 132000 parameter count,
 * 132012 parameter format, 131026 undeliverable, 100 invalid parameter, 190 token, …) is
 * permanent: retrying cannot change the answer.
 */
const RETRYABLE_CODES = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131056]);

export type GraphErrorBody = {
  error?: {
    message?: string;
    type?: string;
    code?: number;
    error_subcode?: number;
    error_data?: { details?: string };
    fbtrace_id?: string;
  };
};

export function classifyGraphError(httpStatus: number, body: unknown, retryAfter?: string | null): Failure {
  const err = (body as GraphErrorBody | null)?.error;
  const code = typeof err?.code === "number" ? err.code : null;
  const title = err?.message || `HTTP ${httpStatus}`;
  const details = err?.error_data?.details ?? null;
  const retryable = httpStatus === 429 || httpStatus >= 500 || (code !== null && RETRYABLE_CODES.has(code));
  const seconds = Number(retryAfter);
  return {
    ok: false,
    retryable,
    error: { code, title, details },
    retryAfterMs: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined,
  };
}

/** Timeouts and network errors: the request may or may not have reached Meta, so it is retried. */
/** fetch's abort signal, or undici's headers/body timeouts. */
export function isTimeout(err: unknown): boolean {
  const e = err as { name?: string; code?: string } | undefined;
  return (
    e?.name === "TimeoutError" || e?.name === "AbortError" || e?.code === "UND_ERR_HEADERS_TIMEOUT" || e?.code === "UND_ERR_BODY_TIMEOUT"
  );
}

/** Errors raised before a byte of the request could have left: the send certainly did not happen. */
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

export function networkFailure(err: unknown): Failure {
  const e = err as Error & { code?: string; cause?: { code?: string } };
  const code = e?.code ?? e?.cause?.code;
  return {
    ok: false,
    retryable: true,
    error: { code: null, title: isTimeout(err) ? "Timeout" : `Network error: ${e?.message ?? String(err)}` },
    uncertain: !(code && NOT_SENT.has(code)),
  };
}
