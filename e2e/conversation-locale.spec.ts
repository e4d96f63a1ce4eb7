import { expect, test, type Browser } from "@playwright/test";
import { shot, signIn } from "./helpers";
import { BASE_URL, DEMO } from "./fixtures";

/**
 * The viewer's date fields are the app's own (components/ui/date-field.tsx), written the UI's way
 * whatever the browser's language ("03/11/2026" in Spanish, "11/03/2026" in English; a native date
 * input would follow the browser's); the UI also says the chosen range in words beside them.
 * Checked with the browser's locale set to Spain's Spanish and to US English, the UI in either language.
 */
const URL_ = `/history?wa_number=${DEMO.number}&customer=${DEMO.maria}&from=2026-11-03&to=2026-11-24`;

async function open(browser: Browser, browserLocale: string, ui: "es" | "en") {
  const context = await browser.newContext({ locale: browserLocale, timezoneId: "UTC", baseURL: BASE_URL });
  const page = await context.newPage();
  await signIn(page);
  await page.evaluate((l) => window.localStorage.setItem("wa_locale", l), ui);
  await page.goto(URL_);
  await expect(page.locator("html")).toHaveAttribute("lang", ui);
  return { context, page };
}

test("the date fields and the range read in the UI's language whatever the browser's locale", async ({ browser }) => {
  test.setTimeout(180_000);
  const cases = [
    { browserLocale: "es-ES", ui: "en", range: "From November 3, 2026 to November 24, 2026", from: "11/03/2026", typed: "11/10/2026" },
    {
      browserLocale: "es-ES",
      ui: "es",
      range: "Del 3 de noviembre de 2026 al 24 de noviembre de 2026",
      from: "03/11/2026",
      typed: "10/11/2026",
    },
    {
      browserLocale: "en-US",
      ui: "es",
      range: "Del 3 de noviembre de 2026 al 24 de noviembre de 2026",
      from: "03/11/2026",
      typed: "10/11/2026",
    },
    { browserLocale: "en-US", ui: "en", range: "From November 3, 2026 to November 24, 2026", from: "11/03/2026", typed: "11/10/2026" },
  ] as const;
  for (const c of cases) {
    const { context, page } = await open(browser, c.browserLocale, c.ui);
    const range = page.getByTestId("conv-range");
    await expect(range).toHaveText(c.range);
    // Both inputs point at the range text, so a screen reader hears the dates in the UI's language.
    await expect(page.locator("#conv-from")).toHaveAttribute("aria-describedby", "conv-range");
    await expect(page.locator("#conv-to")).toHaveAttribute("aria-describedby", "conv-range");
    // The fields write the dates the UI's way, with the UI's placeholder, whatever the browser's locale.
    await expect(page.locator("#conv-from")).toHaveValue(c.from);
    await expect(page.locator("#conv-from")).toHaveAttribute("placeholder", c.ui === "es" ? "dd/mm/aaaa" : "mm/dd/yyyy");
    // A date typed the UI's way is said again at once; ISO is taken too.
    await page.locator("#conv-from").fill(c.typed);
    await expect(range).toContainText(c.ui === "es" ? "Del 10 de noviembre de 2026" : "From November 10, 2026");
    await page.locator("#conv-from").fill("2026-11-05");
    await expect(range).toContainText(c.ui === "es" ? "Del 5 de noviembre de 2026" : "From November 5, 2026");
    // Text that is not a date is marked, and the range keeps the last good date.
    await page.locator("#conv-from").fill("31/31/2026");
    await expect(page.locator("#conv-from")).toHaveAttribute("aria-invalid", "true");
    await expect(range).toContainText(c.ui === "es" ? "Del 5 de noviembre de 2026" : "From November 5, 2026");
    await page.locator("#conv-from").fill(c.typed);
    await page.setViewportSize({ width: 1280, height: 900 });
    await shot(page, `conversation-dates-${c.browserLocale}-ui-${c.ui}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, `conversation-dates-${c.browserLocale}-ui-${c.ui}-phone`);
    await context.close();
  }
});
