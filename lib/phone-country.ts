import { getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js";
import { isValidNumber, sanitizeNumber } from "./phone";

/**
 * What the send form makes of a typed destination before it is sent (docs/features/send-form.md).
 * The API is not changed: `destination` is a number with its country code (docs/contract.md), and
 * a number an integrator sends is stored as sent. Only the agent's form completes a number typed
 * without its code, from the team's default country, so `3005551234` goes to `+573005551234` in a
 * Colombian team instead of to country code 30.
 *
 * - `international`: typed with `+` or `00`, or digits that already read as a valid number with
 *   their code (`573005551234`): sent as typed.
 * - `completed`: digits that are a valid national number of the default country: its code is put in front.
 * - `noCountryCode`: 8–15 digits that are neither: refused in the form, never sent as typed.
 * - `unchecked`: anything else (empty, too short, letters): the shared zod schema says why.
 *
 * Validity is libphonenumber-js's (Google's libphonenumber metadata, kept current by its maintainer
 * with each upstream release); its "min" metadata is the one bundled here.
 */
export type TypedNumber =
  | { kind: "international"; digits: string }
  | { kind: "completed"; digits: string }
  | { kind: "noCountryCode"; country: string | null }
  | { kind: "unchecked" };

export function resolveTypedNumber(raw: string, defaultCountry: string | null | undefined): TypedNumber {
  const typed = raw.trim();
  const digits = sanitizeNumber(typed);
  if (!isValidNumber(digits)) return { kind: "unchecked" };
  if (/^(\+|00)/.test(typed)) return { kind: "international", digits };
  const country = defaultCountry && isSupportedCountry(defaultCountry) ? defaultCountry : null;
  if (country) {
    const national = parsePhoneNumberFromString(digits, country);
    if (national?.isValid()) return { kind: "completed", digits: national.number.slice(1) };
  }
  if (parsePhoneNumberFromString(`+${digits}`)?.isValid()) return { kind: "international", digits };
  return { kind: "noCountryCode", country };
}

/** The value the form sends for a typed destination: `+<digits>` when known, else as typed (for the schema's own message). */
export function destinationToSend(raw: string, defaultCountry: string | null | undefined): string {
  const r = resolveTypedNumber(raw, defaultCountry);
  return r.kind === "international" || r.kind === "completed" ? `+${r.digits}` : raw;
}

/** The form's own refusals of a number without its country code (Spanish, worded for the UI by lib/api-client/send-errors.ts). */
export const NO_COUNTRY_CODE =
  "El número no tiene código de país y el equipo no tiene un país por defecto: escríbalo con + y el código de país.";
export const notNationalNumber = (country: string) =>
  `El número no es válido en ${country} (+${getCountryCallingCode(country as CountryCode)}) y no tiene código de país: escríbalo con + y el código de país.`;

/** The refusal of a `noCountryCode` number. */
export const noCountryCodeMessage = (r: { country: string | null }) => (r.country ? notNationalNumber(r.country) : NO_COUNTRY_CODE);
