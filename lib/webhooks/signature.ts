import { createHmac, timingSafeEqual } from "node:crypto";

/** Constant-time check of `sha256=<hex>` against the HMAC-SHA256 of the raw body. */
export function signatureMatches(secret: string, raw: Uint8Array, header: string | null): boolean {
  if (!header || !header.startsWith("sha256=")) return false;
  const given = Buffer.from(header.slice(7), "hex");
  const expected = createHmac("sha256", secret).update(raw).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function tokenMatches(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
