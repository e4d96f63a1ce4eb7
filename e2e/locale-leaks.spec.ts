import { expect, test, type Page } from "@playwright/test";
import { broadcastToNewContact, signIn } from "./helpers";
import { BASE_URL } from "./fixtures";
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
  "/settings/webhooks",
  "/settings/routing",
  "/templates/new",
  "/docs",
];
/**
 * Pages of which only the frame is read: the API reference's body is the OpenAPI document, written
 * in the contract's language (its error texts are the contract's, in Spanish); the header, the
 * navigation and the tab's title around it follow the UI's language.
 */
const FRAME_ONLY = new Set(["/docs"]);
/** Pages read signed out: the sign-in page and an invitation's (a link that is not valid). */
const SIGNED_OUT_PAGES = ["/login", "/invite/not-a-valid-invitation-link"];

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

/** Every page of `urls` in each language; the texts of the other one found on them. */
async function leaksOn(page: Page, urls: string[]): Promise<string[]> {
  const leaks: string[] = [];
  for (const [lang, own, other] of [
    ["en", en, es],
    ["es", es, en],
  ] as const) {
    await page.evaluate((l) => window.localStorage.setItem("wa_locale", l), lang);
    const { body, title } = foreign(other as Catalogue, own as Catalogue);
    for (const url of urls) {
      await loaded(page, url);
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      const frameOnly = FRAME_ONLY.has(url);
      const [text, tab] = await page.evaluate(
        (frame) => [(frame ? document.querySelector("header") : document.body)?.innerText ?? "", document.title],
        frameOnly,
      );
      for (const [key, value] of body) if (text.includes(value) || tab.includes(value)) leaks.push(`${url} (${lang}): ${key} “${value}”`);
      for (const [key, value] of title)
        if (tab.split(/\s[·|–-]\s/).includes(value)) leaks.push(`${url} (${lang}) title: ${key} “${value}”`);
    }
  }
  return leaks;
}

test("no page shows the other language's texts", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  // Scheduled for tomorrow: its page shows every figure at zero, in words of both languages.
  const broadcast = await broadcastToNewContact(page, { origin: BASE_URL, scheduledAt: new Date(Date.now() + 24 * 3600_000) });
  const leaks = await leaksOn(page, [...PAGES, `/broadcasts/${broadcast}`]);
  expect(leaks, leaks.join("\n")).toEqual([]);
});

test("signed out, the sign-in and invitation pages show only the chosen language", async ({ page }) => {
  await page.goto("/login");
  const leaks = await leaksOn(page, SIGNED_OUT_PAGES);
  expect(leaks, leaks.join("\n")).toEqual([]);
});
