import { describe, expect, it } from "vitest";
import { es } from "@/lib/i18n/es";
import { en } from "@/lib/i18n/en";
import { format } from "@/lib/i18n/format";
import { IMPORT_LABEL_PROBLEMS, IMPORT_REJECT_CODES, rejectReason } from "@/lib/contacts/import-schemas";

/** The rejected rows' reasons the import page words from their codes (and puts in the download). */
describe("import reason codes in the UI's language", () => {
  it("every code has its Spanish text, the server's own, and an English one", () => {
    for (const code of IMPORT_REJECT_CODES) {
      const key = `import.code.${code}` as keyof typeof es;
      expect(format(es[key], { line: 7 })).toBe(rejectReason(code, 7));
      expect(en[key]).toBeTruthy();
      expect(format(en[key], { line: 7 })).not.toBe(rejectReason(code, 7));
    }
    expect(format(en["import.code.number_repeated"], { line: 7 })).toBe("The number already appears on line 7 of the file.");
  });

  it("every reason a missing label cannot be created has its words in both languages", () => {
    for (const p of IMPORT_LABEL_PROBLEMS) {
      const key = `import.problem.${p}` as keyof typeof es;
      expect(es[key]).toBeTruthy();
      expect(en[key]).toBeTruthy();
    }
  });
});
