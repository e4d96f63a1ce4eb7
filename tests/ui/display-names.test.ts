import { describe, expect, it } from "vitest";
import { templateDisplayName, templateLanguageName } from "@/lib/templates/display-name";
import { contactDisplayName } from "@/lib/contacts/display-name";

/** What the UI calls templates and contacts (friendly names: docs/features/inbox.md, "Across the dashboard"). */
describe("a template's name in words", () => {
  it("turns WhatsApp's slug into words with a capital", () => {
    expect(templateDisplayName("promo_navidad_2026")).toBe("Promo navidad 2026");
    expect(templateDisplayName("recordatorio_cita")).toBe("Recordatorio cita");
    expect(templateDisplayName("order-update__v2")).toBe("Order update v2");
    expect(templateDisplayName("ñandú_feliz")).toBe("Ñandú feliz");
  });
  it("keeps a name with nothing to show as it is", () => {
    expect(templateDisplayName("___")).toBe("___");
    expect(templateDisplayName("")).toBe("");
  });
  it("names the language in the UI's language; a code that is not one stays", () => {
    expect(templateLanguageName("es", "es")).toBe("español");
    expect(templateLanguageName("es", "en")).toBe("Spanish");
    expect(templateLanguageName("es_CO", "es")).toMatch(/^español \(Colombia\)$/);
    expect(templateLanguageName("pt_BR", "en")).toMatch(/Portuguese/);
    expect(templateLanguageName("!!", "es")).toBe("!!");
  });
});

describe("a contact's name", () => {
  it("is its name, else its number, and its customer_id only when it has neither", () => {
    expect(contactDisplayName({ name: "María López", customer_number: "573009876543", customer_id: "cus_maria" })).toBe("María López");
    expect(contactDisplayName({ name: "  ", customer_number: "573009876543", customer_id: "cus_maria" })).toBe("+573009876543");
    expect(contactDisplayName({ name: null, customer_number: null, customer_id: "cus_maria" })).toBe("cus_maria");
    expect(contactDisplayName({})).toBe("—");
  });
});
