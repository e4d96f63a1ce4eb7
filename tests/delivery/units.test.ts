import { describe, expect, it } from "vitest";
import { backoffMs } from "@/lib/delivery/backoff";
import { classifyGraphError, networkFailure } from "@/lib/channels/cloud-api/errors";
import { templateBody } from "@/lib/channels/cloud-api/send";
import { signatureMatches } from "@/lib/meta-webhooks/signature";
import { createHmac } from "node:crypto";

describe("backoffMs (full jitter)", () => {
  it("stays within [0, min(cap, base·2^(n-1))] and honours Retry-After as a floor", () => {
    expect(backoffMs(1, 1000, 60_000, undefined, () => 0.999)).toBeLessThan(1000);
    expect(backoffMs(4, 1000, 60_000, undefined, () => 1)).toBe(8000);
    expect(backoffMs(20, 1000, 60_000, undefined, () => 1)).toBe(60_000);
    expect(backoffMs(3, 1000, 60_000, undefined, () => 0)).toBe(0);
    expect(backoffMs(1, 1000, 60_000, 30_000, () => 0.5)).toBe(30_000);
  });
});

describe("classifyGraphError", () => {
  const body = (code: number) => ({
    error: { message: `m${code}`, type: "OAuthException", code, error_data: { details: "d" }, fbtrace_id: "x" },
  });
  it.each([
    [429, 130429, true],
    [400, 131056, true],
    [500, 131000, true],
    [400, 131016, true],
    [503, 2, true],
    [400, 131047, false],
    [400, 132000, false],
    [400, 132012, false],
    [400, 131026, false],
    [400, 100, false],
    [401, 190, false],
  ])("HTTP %i code %i → retryable %s", (status, code, retryable) => {
    const f = classifyGraphError(status, body(code));
    expect(f.retryable).toBe(retryable);
    expect(f.error).toEqual({ code, title: `m${code}`, details: "d" });
  });
  it("treats timeouts and network errors as retryable, and reads Retry-After", () => {
    expect(networkFailure(Object.assign(new Error("x"), { name: "TimeoutError" }))).toMatchObject({
      retryable: true,
      error: { title: "Timeout" },
    });
    for (const code of ["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]) {
      expect(networkFailure(Object.assign(new Error("x"), { code }))).toMatchObject({ retryable: true, error: { title: "Timeout" } });
    }
    expect(networkFailure(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }))).toMatchObject({
      retryable: true,
      error: { title: "Network error: connect ECONNREFUSED" },
    });
    expect(classifyGraphError(429, null, "7").retryAfterMs).toBe(7000);
  });
});

describe("templateBody", () => {
  it("sends named parameters with parameter_name, documents with filename and default attachments by link", () => {
    const b = templateBody({
      to: "573001112222",
      name: "t",
      language: "es",
      header: { kind: "media", format: "DOCUMENT", mediaId: "m1", filename: "f.pdf" },
      body: [{ name: "cliente", text: "Ana" }],
      quickReplies: [],
    });
    expect(b.template.components).toEqual([
      { type: "header", parameters: [{ type: "document", document: { id: "m1", filename: "f.pdf" } }] },
      { type: "body", parameters: [{ type: "text", parameter_name: "cliente", text: "Ana" }] },
    ]);
    const linked = templateBody({
      to: "1",
      name: "t",
      language: "es",
      header: { kind: "media", format: "VIDEO", link: "https://x.test/v.mp4" },
      body: [],
      quickReplies: [],
    });
    expect(linked.template.components).toEqual([
      { type: "header", parameters: [{ type: "video", video: { link: "https://x.test/v.mp4" } }] },
    ]);
  });
});

describe("signatureMatches", () => {
  it("accepts only sha256=<hex hmac of the exact bytes>", () => {
    const raw = new TextEncoder().encode('{"a":1}');
    const good = `sha256=${createHmac("sha256", "s").update(raw).digest("hex")}`;
    expect(signatureMatches("s", raw, good)).toBe(true);
    expect(signatureMatches("s", raw, good.toUpperCase())).toBe(false);
    expect(signatureMatches("t", raw, good)).toBe(false);
    expect(signatureMatches("s", raw, null)).toBe(false);
    expect(signatureMatches("s", raw, "sha1=abc")).toBe(false);
  });
});
