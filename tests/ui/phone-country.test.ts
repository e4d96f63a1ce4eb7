import { describe, expect, it } from "vitest";
import { destinationToSend, noCountryCodeMessage, resolveTypedNumber } from "@/lib/phone-country";
import { placeSendError, type SendFormShape } from "@/lib/api-client/send-errors";
import { format } from "@/lib/i18n/format";
import { es } from "@/lib/i18n/es";
import { en } from "@/lib/i18n/en";
import type { MessageKey } from "@/lib/i18n";

describe("the send form's typed destination (lib/phone-country.ts)", () => {
  it("completes a national number from the team's default country", () => {
    expect(resolveTypedNumber("3005551234", "CO")).toEqual({ kind: "completed", digits: "573005551234" });
    expect(resolveTypedNumber(" 300 555 1234 ", "CO")).toEqual({ kind: "completed", digits: "573005551234" });
    expect(resolveTypedNumber("601 555 1234", "CO")).toEqual({ kind: "completed", digits: "576015551234" });
    expect(destinationToSend("3005551234", "CO")).toBe("+573005551234");
  });

  it("keeps a number typed with + or 00, or whose digits already carry a valid country code", () => {
    expect(resolveTypedNumber("+573005551234", "CO")).toEqual({ kind: "international", digits: "573005551234" });
    expect(resolveTypedNumber("0054 9 11 5555 4444", "CO")).toEqual({ kind: "international", digits: "5491155554444" });
    expect(resolveTypedNumber("5491155554444", "CO")).toEqual({ kind: "international", digits: "5491155554444" });
    expect(resolveTypedNumber("525512345678", null)).toEqual({ kind: "international", digits: "525512345678" });
  });

  it("refuses digits without a country code, never sending them as typed", () => {
    // Without a default country, 3005551234 would otherwise go to country code 30.
    const none = resolveTypedNumber("3005551234", null);
    expect(none).toEqual({ kind: "noCountryCode", country: null });
    expect(destinationToSend("3005551234", null)).toBe("3005551234");
    const co = resolveTypedNumber("1234567890", "CO");
    expect(co).toEqual({ kind: "noCountryCode", country: "CO" });
    expect(noCountryCodeMessage(co as { country: string })).toBe(
      "El número no es válido en CO (+57) y no tiene código de país: escríbalo con + y el código de país.",
    );
    // An unknown country setting is no country.
    expect(resolveTypedNumber("3005551234", "XX")).toEqual({ kind: "noCountryCode", country: null });
  });

  it("leaves what is not 8 to 15 digits to the shared schema's own message", () => {
    expect(resolveTypedNumber("12-34", "CO")).toEqual({ kind: "unchecked" });
    expect(resolveTypedNumber("", "CO")).toEqual({ kind: "unchecked" });
    expect(resolveTypedNumber("maría", "CO")).toEqual({ kind: "unchecked" });
  });

  it("words its refusals for the UI in both languages", () => {
    const shape: SendFormShape = { bodyKeys: [], buttonIndexes: [], hasHeaderInput: false, hasAttachment: false, label: () => "Destino" };
    const t = (cat: Record<MessageKey, string>) => (key: MessageKey, vars?: Record<string, string | number>) => format(cat[key], vars);
    const msg = noCountryCodeMessage({ country: null });
    expect(placeSendError("destination", msg, shape, t(es)).message).toBe(
      "Destino: el número no tiene código de país y el equipo no tiene país por defecto; escríbalo con + y el código de país",
    );
    expect(placeSendError("destination", noCountryCodeMessage({ country: "CO" }), shape, t(en)).message).toBe(
      "Destino: not a valid number of CO (+57) and it has no country code; type it with + and the country code",
    );
  });
});
