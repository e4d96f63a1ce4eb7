import { expect, test, type Page } from "@playwright/test";
import { api, expectAccessible, shot, signIn, uniquePhone } from "./helpers";
import { DEMO } from "./fixtures";

/** The figures the page should show, straight from the API. */
async function summary(page: Page, query = "") {
  const res = await api(page).get(`/api/v1/reports/summary${query}`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).data as { totals: Record<string, number | null>; days: ({ day: string } & Record<string, number | null>)[] };
}

/**
 * Reports (docs/features/reports.md): a customer writes to the sandbox number and the agent answers; the page's
 * totals and per-day table then show what /api/v1/reports/summary says, with and without a
 * number filter, in Spanish and English, accessible and without sideways overflow at 1440 and 390 px.
 */
test("the reports page shows the rollup's figures, filters by number, in both languages and widths", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  const phone = uniquePhone();
  const inbound = await api(page).post("/api/v1/sandbox/inbound", {
    wa_number: DEMO.number,
    from: phone,
    type: "text",
    payload: { text: "¿Abren hoy?" },
  });
  expect(inbound.status(), await inbound.text()).toBe(200);
  const reply = await api(page).post("/api/v1/messages/whatsapp/send", {
    wa_number: DEMO.number,
    customer_source: phone,
    type: "text",
    payload: { text: "Sí, hasta las 6." },
  });
  expect(reply.status(), await reply.text()).toBe(200);

  const today = new Date().toISOString().slice(0, 10);
  const all = await summary(page);
  expect(all.totals.first_responses).toBeGreaterThanOrEqual(1);

  await page.goto("/reports");
  await expect(page.getByRole("heading", { name: "Informes", level: 1 })).toBeVisible();
  const totalResponses = page.getByTestId("total-responses");
  await expect(totalResponses).toHaveText(String(all.totals.first_responses));
  const todayRow = page.getByTestId("days-table").locator(`tr[data-row="${today}"]`);
  await expect(todayRow.locator('td[data-col="messages_in"]')).toHaveAttribute("data-value", String(all.days.at(-1)!.messages_in));
  await expect(todayRow.locator('td[data-col="first_responses"]')).toHaveAttribute("data-value", String(all.days.at(-1)!.first_responses));
  await expect(page.getByTestId("agents-table").locator("tbody tr").filter({ hasText: DEMO.agentName })).toBeVisible();

  // The number filter asks again; the page follows the API's filtered answer.
  await page.getByLabel("Número").selectOption(DEMO.number);
  const mine = await summary(page, `?wa_number=${DEMO.number}`);
  await expect(todayRow.locator('td[data-col="messages_out"]')).toHaveAttribute("data-value", String(mine.days.at(-1)!.messages_out));
  await expect(totalResponses).toHaveText(String(mine.totals.first_responses));

  for (const lang of ["es", "en"] as const) {
    await page.evaluate((l) => window.localStorage.setItem("wa_locale", l), lang);
    for (const [suffix, size] of [
      ["desktop", { width: 1440, height: 900 }],
      ["phone", { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(size);
      await page.goto("/reports");
      await expect(page.getByRole("heading", { name: lang === "es" ? "Informes" : "Reports", level: 1 })).toBeVisible();
      await expect(page.getByTestId("days-table")).toBeVisible();
      await expect(page.getByTestId("times-chart").locator("svg.recharts-surface").first()).toBeVisible();
      await expectAccessible(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
      await shot(page, `reports-${lang}-${suffix}`);
    }
  }
});
