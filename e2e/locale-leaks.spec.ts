import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./helpers";
import { es } from "../lib/i18n/es";
import { en } from "../lib/i18n/en";

/**
 * Every dashboard page speaks one language (docs/features/inbox.md, "Across the dashboard"): in English no text of the
 * Spanish catalogue shows, in Spanish none of the English one. Compared are the other catalogue's
 * texts of three words or more with no placeholder, and page titles, that the shown language does
 * not share; the body's text and the tab's title are read once the page has loaded.
 */
const PAGES = [
  "/inbox",
  "/history",
  "/send",
  "/contacts",
  "/contacts/import",
  "/labels",
  "/saved-replies",
  "/broadcasts",
  "/broadcasts/new",
  "/templates",
  "/reports",
  "/audit",
  "/settings",
  "/settings/team",
  "/settings/agents",
  "/settings/numbers",
  "/settings/tokens",
];

type Catalogue = Record<string, string>;

/** The other language's texts that would betray it: [key, text]. */
function foreign(other: Catalogue, own: Catalogue): { body: [string, string][]; title: [string, string][] } {
  const mine = new Set(Object.values(own));
  const plain = Object.entries(other).filter(([, text]) => !text.includes("{") && !mine.has(text));
  return {
    body: plain.filter(([, text]) => text.trim().split(/\s+/).length >= 3),
    title: plain.filter(([key]) => key.endsWith(".title")),
  };
}

async function loaded(page: Page, url: string) {
  await page.goto(url);
  await expect(page.locator("main").locator("h1:visible, h2:visible").first()).toBeVisible();
  // Lists and figures come after the frame: wait for every "loading" to go.
  await expect(page.getByText(/^(Cargando…|Loading…)$/)).toHaveCount(0);
}

test("no page shows the other language's texts", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  for (const [lang, own, other] of [
    ["en", en, es],
    ["es", es, en],
  ] as const) {
    await page.evaluate((l) => window.localStorage.setItem("wa_locale", l), lang);
    const { body, title } = foreign(other as Catalogue, own as Catalogue);
    const leaks: string[] = [];
    for (const url of PAGES) {
      await loaded(page, url);
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      const [text, tab] = await page.evaluate(() => [document.body.innerText, document.title]);
      for (const [key, value] of body) if (text.includes(value) || tab.includes(value)) leaks.push(`${url} (${lang}): ${key} “${value}”`);
      for (const [key, value] of title)
        if (tab.split(/\s[·|–-]\s/).includes(value)) leaks.push(`${url} (${lang}) title: ${key} “${value}”`);
    }
    expect(leaks, leaks.join("\n")).toEqual([]);
  }
});
