import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { titleKeyOf } from "@/components/layout/tab-titles";
import { en } from "@/lib/i18n/en";
import { es } from "@/lib/i18n/es";

/** Every dashboard page has a tab title in each language (components/layout/tab-titles.ts). */
describe("tab titles", () => {
  const pages = fs
    .readdirSync(path.join(process.cwd(), "app", "(dashboard)"), { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.startsWith("["))
    .map((d) => `/${d.name}`);

  it("names every dashboard folder but the inbox, whose title carries its unread count", () => {
    expect(pages.length).toBeGreaterThan(8);
    for (const p of pages) if (p !== "/inbox") expect(titleKeyOf(p), p).not.toBeNull();
  });

  it("takes the longest matching path and reads differently in English", () => {
    expect(titleKeyOf("/contacts/import")).toBe("import.title");
    expect(titleKeyOf("/contacts")).toBe("contacts.title");
    expect(titleKeyOf("/broadcasts/12")).toBe("bc.title");
    expect(titleKeyOf("/contactsx")).toBeNull();
    for (const p of pages.filter((x) => x !== "/inbox")) {
      const key = titleKeyOf(p)!;
      expect(en[key], p).not.toBe(es[key]);
    }
  });
});
