import { expect, test, type Page } from "@playwright/test";
import fs from "node:fs";
import path from "node:path";
import { broadcastToNewContact, expectAccessible, expectNoOverflow, shot, signIn } from "./helpers";
import { DEMO, LIVE_BASE_URL } from "./fixtures";

/**
 * One date formatter (docs/features/inbox.md, "Across the dashboard"): every page writes a time and a
 * date the same way in the UI's language; /docs sits in the app's frame, with the language switch,
 * at phone width too; templates and contacts are named in words.
 *
 * On the suite's second server (its worker walks the broadcast's sends, so its recipients have
 * dates to show). The browser speaks US English and its zone is UTC (playwright.config.ts): the
 * Spanish forms below can only come from the UI.
 */
test.use({ baseURL: LIVE_BASE_URL, locale: "en-US" });

const FORMS = {
  // "14:05" and "25 nov 2026, 14:05"; never "1:29 p. m." nor "25/11/2026".
  es: { time: /^\d{1,2}:\d{2}$/, dateTime: /^\d{1,2} [a-z]{3,4}\.? \d{4}, \d{1,2}:\d{2}$/ },
  // "2:05 PM" and "Nov 25, 2026, 2:05 PM".
  en: { time: /^\d{1,2}:\d{2}\s[AP]M$/, dateTime: /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/ },
} as const;
type Lang = keyof typeof FORMS;

const SIZES = [
  ["desktop", { width: 1440, height: 900 }],
  ["phone", { width: 390, height: 844 }],
] as const;

/**
 * What the window shows, not the whole page: /docs is some 30,000 px tall, and a full-page
 * capture of it takes the better part of a minute here (e2e/screenshots/, gitignored).
 */
async function windowShot(page: Page, name: string) {
  const dir = path.join(process.cwd(), "e2e", "screenshots");
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

async function setLang(page: Page, lang: Lang) {
  await page.evaluate((l) => window.localStorage.setItem("wa_locale", l), lang);
}

test("one time and one date-and-time format on the inbox, a broadcast's page and the conversation viewer, in Spanish and English", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page);
  // Sent now: the worker walks its send to READED.
  const broadcastId = await broadcastToNewContact(page, { origin: LIVE_BASE_URL });

  for (const lang of ["es", "en"] as const) {
    await setLang(page, lang);
    const form = FORMS[lang];
    const seen: Record<string, string[]> = {};

    // The inbox: María's thread, each bubble's time and the full date in its tooltip.
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/inbox?q=${encodeURIComponent("María López")}`);
    await expect(page.locator("html")).toHaveAttribute("lang", lang);
    await page.getByTestId("conversation-row").filter({ hasText: "María López" }).first().click();
    const inboxTimes = page.getByTestId("message-scroller").locator("article time");
    await expect(inboxTimes.first()).toBeVisible();
    seen.inboxTime = await inboxTimes.allInnerTexts();
    seen.inboxDateTime = await inboxTimes.evaluateAll((els) => els.map((el) => el.getAttribute("title") ?? ""));
    // A list row's time is today's time, "yesterday" in words, or a day and month.
    const rowWhen = (await page.getByTestId("conversation-row").first().getByTestId("conversation-when").innerText()).trim();
    expect(rowWhen).toMatch(
      lang === "es"
        ? /^(\d{1,2}:\d{2}|Ayer|\d{1,2} [a-z]{3,4}\.?( \d{4})?)$/
        : /^(\d{1,2}:\d{2}\s[AP]M|Yesterday|[A-Z][a-z]{2} \d{1,2}(, \d{4})?)$/,
    );
    await shot(page, `dates-inbox-desktop-${lang}`);

    // A broadcast's page: when each recipient last changed, and when the broadcast started.
    await page.goto(`/broadcasts/${broadcastId}`);
    await expect(page.getByTestId("recipient-row")).toHaveCount(1, { timeout: 45_000 });
    await expect(page.getByTestId("recipient-row").first()).toHaveAttribute("data-status", "READED", { timeout: 45_000 });
    seen.broadcastDateTime = await page.getByTestId("recipient-row").locator("time").allInnerTexts();
    const started = await page.getByTestId("broadcast-started").innerText();
    seen.broadcastStarted = [started.replace(/^(Inició el|Started) /, "")];
    // The template in words, its WhatsApp name beside it.
    const template = page.getByTestId("broadcast-facts").getByTestId("template-name");
    await expect(template).toContainText("Recordatorio cita");
    await expect(template.getByTestId("template-slug")).toHaveText("recordatorio_cita");
    await expectAccessible(page);
    await shot(page, `dates-broadcast-desktop-${lang}`);

    // The conversation viewer: the same bubbles, the same forms.
    await page.goto(`/history?wa_number=${DEMO.number}&customer=${DEMO.maria}`);
    // The customer is named, not shown as the number the URL carries.
    await expect(page.getByTestId("current-customer")).toContainText("María López");
    const viewerTimes = page.getByTestId("message-scroller").locator("article time");
    await expect(viewerTimes.first()).toBeVisible();
    seen.viewerTime = await viewerTimes.allInnerTexts();
    seen.viewerDateTime = await viewerTimes.evaluateAll((els) => els.map((el) => el.getAttribute("title") ?? ""));
    await shot(page, `dates-viewer-desktop-${lang}`);

    for (const [where, texts] of Object.entries(seen)) {
      expect(texts.length, where).toBeGreaterThan(0);
      const pattern = where.endsWith("Time") && !where.endsWith("DateTime") ? form.time : form.dateTime;
      for (const text of texts) expect(text, `${where} (${lang})`).toMatch(pattern);
    }
  }
});

test("/docs sits in the app's frame, with the language switch, and fits a phone; signed out too", async ({ browser, page }) => {
  test.setTimeout(360_000);
  // Signed in: the dashboard's header, the docs link marked as the current page, a way back.
  await signIn(page);
  await page.getByTestId("docs-link").click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByTestId("docs-link")).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("navigation", { name: "Navegación principal" }).getByRole("link", { name: "Bandeja" })).toBeVisible();

  // Signed out (an integrator with only the link): the page stays, with the switch and "Entrar".
  const visitor = await browser.newContext({ baseURL: LIVE_BASE_URL, locale: "en-US", timezoneId: "UTC" });
  const anon = await visitor.newPage();
  for (const [suffix, size] of SIZES) {
    for (const lang of ["es", "en"] as const) {
      await anon.setViewportSize(size);
      await anon.goto("/docs");
      await anon.evaluate((l) => window.localStorage.setItem("wa_locale", l), lang);
      await anon.reload();
      await expect(anon).toHaveURL(/\/docs$/);
      await expect(anon.locator("html")).toHaveAttribute("lang", lang);
      const header = anon.locator("header");
      await expect(header.getByRole("link", { name: lang === "es" ? "WA Mensajería" : "WA Messaging" })).toHaveAttribute("href", "/inbox");
      await expect(header.getByRole("link", { name: lang === "es" ? "Entrar" : "Sign in" })).toHaveAttribute("href", "/login?next=%2Fdocs");
      await expect(header.getByRole("combobox", { name: lang === "es" ? "Idioma" : "Language" })).toBeVisible();
      await expect(anon.getByRole("heading", { name: lang === "es" ? "Parámetros" : "Parameters" }).first()).toBeVisible();
      // A wide table scrolls inside its own box, not the page.
      await windowShot(anon, `docs-${suffix}-${lang}-signed-out`);
      const table = anon.locator("main table").first();
      await table.scrollIntoViewIfNeeded();
      expect(await table.evaluate((t) => getComputedStyle(t.parentElement!).overflowX)).toBe("auto");
      await windowShot(anon, `docs-${suffix}-${lang}-signed-out-table`);
      await expectNoOverflow(anon, size.width);
      // axe reads the whole 30,000 px page (a minute here, two thirds of it colour contrast): once
      // per width, in either language. The page's colours do not change with the width (no
      // responsive colour class), so contrast is read at the first width only, and at the
      // second on the header, whose links do change.
      if (suffix === "desktop" && lang === "es") await expectAccessible(anon);
      if (suffix !== "desktop" && lang === "en") {
        await expectAccessible(anon, undefined, ["color-contrast"]);
        await expectAccessible(anon, "header");
      }
    }
  }
  // The switch itself changes the page's language, no reload.
  await anon.setViewportSize({ width: 390, height: 844 });
  await anon.locator("header").getByRole("combobox").selectOption("es");
  await expect(anon.locator("html")).toHaveAttribute("lang", "es");
  await expect(anon.getByRole("heading", { name: "Respuestas" }).first()).toBeVisible();
  await visitor.close();

  // Signed in at phone width: the menu holds the navigation back to the app.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await page.getByRole("button", { name: "Menú" }).click();
  await expect(page.getByRole("navigation", { name: "Navegación principal" }).getByRole("link", { name: "Bandeja" })).toBeVisible();
  await expect(page.locator("header").getByRole("combobox", { name: "Idioma" })).toBeVisible();
  await expectNoOverflow(page, 390);
  // The document below is the one checked signed out at this width: only the header differs.
  await expectAccessible(page, "header");
  await windowShot(page, "docs-phone-es-signed-in-menu");
});

test("templates are named in words with their WhatsApp name beside them; the search finds either", async ({ page }) => {
  await signIn(page);
  for (const lang of ["es", "en"] as const) {
    await setLang(page, lang);
    for (const [suffix, size] of SIZES) {
      await page.setViewportSize(size);
      await page.goto("/send");
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await page.getByTestId("template-search").fill("promo navidad");
      const radio = page.getByRole("radio", { name: /Promo navidad/ });
      await expect(radio).toHaveCount(1);
      const option = page.getByTestId("template-list").locator("label").filter({ has: radio });
      await expect(option.getByTestId("template-name").locator("span").first()).toHaveText("Promo navidad");
      await expect(option.getByTestId("template-slug")).toHaveText("promo_navidad");
      // Its language and category by name, not by code.
      await expect(option).toContainText(
        lang === "es" ? "español (Colombia) · Marketing · con imagen" : "Spanish (Colombia) · Marketing · with image",
      );
      await page.getByTestId("template-search").fill("promo_navidad");
      await expect(radio).toHaveCount(1);
      await radio.check();
      await expect(page.getByTestId("template-preview")).toContainText("Navidad");
      await expectAccessible(page);
      await expectNoOverflow(page, size.width);
      await shot(page, `names-send-${suffix}-${lang}`);
    }
  }
});

test("the date field's calendar speaks the UI's language, picks a day the UI's way and sends it as ISO", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  for (const lang of ["en", "es"] as const) {
    await setLang(page, lang);
    for (const [suffix, size] of SIZES) {
      await page.setViewportSize(size);
      await page.goto("/reports");
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      const field = page.locator("#rep-to");
      const button = page.getByTestId("rep-to-calendar-button");
      await expect(button).toHaveAccessibleName(lang === "es" ? "Elegir la fecha en el calendario" : "Pick the date on a calendar");
      const shown = await field.inputValue();
      // The field holds today (UTC); the calendar opens on its month, named in the UI's language.
      const to = new Date();
      const monthName = new Intl.DateTimeFormat(lang === "es" ? "es-ES" : "en-US", { month: "long", timeZone: "UTC" }).format(to);
      await button.click();
      const dialog = page.getByRole("dialog", { name: lang === "es" ? "Calendario" : "Calendar" });
      await expect(dialog).toBeVisible();
      await expect(dialog.getByRole("grid")).toHaveAccessibleName(new RegExp(`^${monthName} ${to.getUTCFullYear()}$`));
      await expect(dialog).toContainText(`${monthName} ${to.getUTCFullYear()}`);
      // The week starts on Monday in Spanish, on Sunday in English.
      // (The weekday row is hidden from screen readers: each day's button says its weekday.)
      await expect(dialog.locator("th").first()).toHaveAttribute("aria-label", lang === "es" ? "lunes" : "Sunday");
      // The day in the field is the one marked; the keyboard starts on it.
      await expect(dialog.locator('[aria-selected="true"]')).toHaveCount(1);
      await expect(dialog.locator("button:focus")).toHaveCount(1);
      await expect(page.getByRole("dialog")).toBeInViewport({ ratio: 1 });
      await windowShot(page, `calendar-${suffix}-${lang}`);
      await page.screenshot({ path: `/tmp/calendar-${suffix}-${lang}.png` });
      // Escape closes it and gives the focus back to the button.
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      await expect(button).toBeFocused();
      // A click outside closes it too.
      await button.click();
      await expect(dialog).toBeVisible();
      await page.getByRole("heading", { level: 1 }).click();
      await expect(dialog).toBeHidden();
      await expect(field).toHaveValue(shown);

      // Picking a day of the month: the field shows it the UI's way, the request carries ISO.
      const day = to.getUTCDate() === 1 ? 2 : 1;
      const iso = `${to.getUTCFullYear()}-${String(to.getUTCMonth() + 1).padStart(2, "0")}-0${day}`;
      await button.click();
      const asked = page.waitForRequest(
        (r) => r.url().includes("/api/v1/reports/summary") && new URL(r.url()).searchParams.get("to") === iso,
      );
      await dialog.locator(`[data-day="${iso}"] button`).click();
      await asked;
      await expect(dialog).toBeHidden();
      const mm = String(to.getUTCMonth() + 1).padStart(2, "0");
      await expect(field).toHaveValue(lang === "es" ? `0${day}/${mm}/${to.getUTCFullYear()}` : `${mm}/0${day}/${to.getUTCFullYear()}`);
      await expect(button).toBeFocused();
      if (suffix === "phone") {
        await button.click();
        await expectAccessible(page);
        await page.keyboard.press("Escape");
      }
    }
  }
});
