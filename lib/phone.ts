/**
 * Numbers are stored as digits only, without '+' (spec 2.4 "sanitized"). `sanitizeNumber` strips
 * spaces, dashes, dots, parentheses and a leading '+' or '00'; it does not guess a country.
 */
export function sanitizeNumber(raw: string): string {
  let s = raw.trim().replace(/[\s\-().]/g, "");
  if (s.startsWith("+")) s = s.slice(1);
  else if (s.startsWith("00")) s = s.slice(2);
  return s;
}

/** E.164 allows at most 15 digits; WhatsApp numbers have at least 8 with the country code. */
export function isValidNumber(digits: string): boolean {
  return /^[1-9][0-9]{7,14}$/.test(digits);
}
