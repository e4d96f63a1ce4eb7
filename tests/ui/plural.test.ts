import { describe, expect, it } from "vitest";
import { compiles, format } from "@/lib/i18n/format";
import { es } from "@/lib/i18n/es";
import { en } from "@/lib/i18n/en";

describe("catalogue messages through intl-messageformat (lib/i18n/format.ts)", () => {
  it("picks one for exactly 1 and other for the rest", () => {
    expect(format(es["conv.count"], { count: 1 }, "es")).toBe("1 mensaje");
    expect(format(es["conv.count"], { count: 0 }, "es")).toBe("0 mensajes");
    expect(format(en["conv.count"], { count: 1 }, "en")).toBe("1 message");
    expect(format(es["import.missing.intro"], { count: 1 })).toMatch(/^El archivo nombra 1 etiqueta que no existe\. Puede crearla/);
    expect(format(es["import.missing.intro"], { count: 2 })).toMatch(/^El archivo nombra 2 etiquetas que no existen\./);
    expect(format(en["import.missing.intro"], { count: 1 }, "en")).toMatch(/^The file names 1 label that does not exist\./);
    expect(format(es["saved.pickerCount"], { n: 1 })).toBe("1 respuesta guardada");
    expect(format(es["bc.recipients.count"], { count: 1 })).toBe("1 destinatario");
  });

  it("writes # as the UI's language writes a number", () => {
    expect(format(es["conv.count"], { count: 1234 }, "es")).toBe("1.234 mensajes");
    expect(format(en["conv.count"], { count: 1234 }, "en")).toBe("1,234 messages");
    expect(format(es["bc.recipients.count"], { count: 1000 }, "es")).toBe("1.000 destinatarios");
  });

  it("keeps {{key}} labels literal, filled when given, and apostrophes plain", () => {
    expect(format("Cuerpo {{key}}: {n, plural, one {# error} other {# errores}}", { key: "2", n: 3 })).toBe("Cuerpo {{2}}: 3 errores");
    expect(format(es["send.buttonParam"], { text: "Sí", key: 1 })).toBe("Botón «Sí» {{1}}");
    expect(format(en["saved.variablesHelp"], undefined, "en")).toBe(en["saved.variablesHelp"]);
    expect(format(en["saved.variablesHelp"], {}, "en")).toContain("{{name}} (customer's name)");
    expect(format("Delete '{name}'?", { name: "x" }, "en")).toBe("Delete 'x'?");
  });

  it("never throws: a text that does not compile or lacks a value comes back as written", () => {
    expect(format("{n, plural, one {# fila} other {# filas}}", { m: 1 })).toBe("{n, plural, one {# fila} other {# filas}}");
    expect(format("{n, plural, one {# fila}", { n: 1 })).toBe("{n, plural, one {# fila}");
    expect(format("Hola {name} y {other}", { name: "Ana" })).toBe("Hola {name} y {other}");
  });

  it("compiles every text of both catalogues under ICU", () => {
    const broken = [
      ...Object.entries(es).filter(([, text]) => !compiles(text, "es")),
      ...Object.entries(en).filter(([, text]) => !compiles(text, "en")),
    ].map(([key]) => key);
    expect(broken).toEqual([]);
  });
});
