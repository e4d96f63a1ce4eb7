import { describe, expect, it } from "vitest";
import { en } from "@/lib/i18n/en";
import { es, type MessageKey } from "@/lib/i18n/es";
import { format } from "@/lib/i18n/format";
import { providerErrorText } from "@/lib/i18n/provider-error";
import { statusLabeler } from "@/lib/i18n/status-labels";
import { groupIssues } from "@/components/contacts/group-issues";

const tOf = (catalogue: Record<string, string>) => (key: MessageKey, vars?: Record<string, string | number>) =>
  format(catalogue[key] ?? key, vars);

describe("provider errors in the UI's language", () => {
  it("names known WhatsApp codes in Spanish or English, with the code and Meta's words after them", () => {
    expect(providerErrorText(tOf(es), 131050, "User has stopped marketing messages")).toBe(
      "El cliente dejó de recibir mensajes de marketing (131050: User has stopped marketing messages)",
    );
    expect(providerErrorText(tOf(en), 131047, "Re-engagement message")).toBe(
      "More than 24 hours since the customer's last message: send a template (131047: Re-engagement message)",
    );
    expect(providerErrorText(tOf(es), 131026, "")).toBe("No se pudo entregar el mensaje (el número no usa WhatsApp o no acepta mensajes)");
  });

  it("keeps Meta's own text for a code it does not know, or no code", () => {
    // The demo's failed image (Meta's 131053) reads in Spanish too, Meta's words after it.
    expect(providerErrorText(tOf(es), 131053, "Media upload error")).toBe(
      "No se pudo subir el archivo (WhatsApp no pudo descargarlo de la URL) (131053: Media upload error)",
    );
    expect(providerErrorText(tOf(es), 999999, "Something new")).toBe("Something new");
    expect(providerErrorText(tOf(es), null, "failed")).toBe("failed");
  });
});

describe("status labels of the exports", () => {
  it("are the dashboard's own words, and unknown codes stay as they are", () => {
    expect(statusLabeler("es")("READED")).toBe("Leído");
    expect(statusLabeler("en")("READED")).toBe("Read");
    expect(statusLabeler("es")("REJECTED")).toBe("Rechazado");
    expect(statusLabeler("es")("WEIRD")).toBe("WEIRD");
  });
});

describe("import warnings, grouped", () => {
  it("writes identical reasons once, with their lines as ranges, in first-seen order", () => {
    const missing = "La etiqueta «Feria Bogotá» no existe; se omitió.";
    const rows = [
      ...Array.from({ length: 21 }, (_, i) => ({ line: i + 2, reason: missing })),
      { line: 25, reason: missing },
      { line: 24, reason: "otro" },
    ];
    expect(groupIssues(rows)).toEqual([
      { reason: missing, count: 22, lines: "2–22, 25" },
      { reason: "otro", count: 1, lines: "24" },
    ]);
    expect(groupIssues([])).toEqual([]);
  });
});
