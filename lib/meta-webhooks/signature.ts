import { createHmac, timingSafeEqual } from "node:crypto";

const SIGNATURE = /^sha256=([0-9a-fA-F]{64})$/;

/**
 * Constant-time check of `sha256=<hex>` against the HMAC-SHA256 of the raw body. The header must
 * be exactly `sha256=` and 64 hex digits: Buffer.from(…, "hex") would stop at the first non-hex
 * character and accept `sha256=<valid>,junk`.
 */
export function signatureMatches(secret: string, raw: Uint8Array, header: string | null): boolean {
  const m = header ? SIGNATURE.exec(header) : null;
  if (!m) return false;
  const given = Buffer.from(m[1], "hex");
  const expected = createHmac("sha256", secret).update(raw).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function tokenMatches(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
