import type { SendOutcome } from "../types";

type Failure = Extract<SendOutcome, { ok: false }>;

/**
 * Graph error codes worth another attempt: throttling (130429 throughput, 131056 pair rate,
 * 4/80007 app and account limits) and transient service trouble (131000, 131016, 1, 2).
 * Everything else the API answers (131047 re-engagement window, 132000 parameter count,
 * 132012 parameter format, 131026 undeliverable, 131049 Meta's per-user marketing limit, 100
 * invalid parameter, 190 token, …) is permanent: retrying cannot change the answer (131049 in
 * particular: Meta holds back marketing to that customer for a while, and a retry only spends
 * another attempt against it; the failure is reported on the recipient).
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
    error_user_title?: string;
    error_user_msg?: string;
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
    meta: err
      ? {
          type: typeof err.type === "string" ? err.type : null,
          subcode: typeof err.error_subcode === "number" ? err.error_subcode : null,
          fbtraceId: typeof err.fbtrace_id === "string" ? err.fbtrace_id : null,
          // Only when Meta gives one, so an error's other fields read as before.
          ...(userMessageOf(err) ? { userMessage: userMessageOf(err) } : {}),
        }
      : undefined,
  };
}

/** Meta's words for a person, when the error has them (template refusals do): "title: message". */
function userMessageOf(err: NonNullable<GraphErrorBody["error"]>): string | null {
  const parts = [err.error_user_title, err.error_user_msg].filter((p): p is string => typeof p === "string" && p.trim() !== "");
  return parts.length ? parts.map((p) => p.trim()).join(": ") : null;
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
