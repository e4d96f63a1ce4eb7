import { expect, test } from "@playwright/test";
import { api, expectAccessible, signIn, unique, uniquePhone } from "./helpers";
import { DEMO } from "./fixtures";

/**
 * The inbox's waiting clock (docs/features/inbox.md): the row counts the customer's wait from
 * waiting_since with the page's own clock, and turns to the alert colour past the team's
 * waiting_alert_minutes (docs/features/team-settings.md). The page's clock is moved forward
 * instead of waiting: the message is then as old to the page as if it had been stored minutes
 * ago, and the row must follow without asking the server.
 */
test("a waiting customer's row shows the wait and turns to the alert colour past the team's threshold", async ({ page }) => {
  await page.clock.install();
  await signIn(page);
  await page.goto("/settings/team");
  const threshold = page.getByLabel("Aviso de espera (minutos)");
  await expect(threshold).toHaveValue("15");
  await threshold.fill("1");
  await page.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Ajustes guardados." })).toBeVisible();

  try {
    const name = unique("Cliente Esperando");
    const res = await api(page).post("/api/v1/sandbox/inbound", {
      wa_number: DEMO.number,
      from: uniquePhone(),
      type: "text",
      payload: { text: "¿Alguien me atiende?" },
      profile_name: name,
    });
    expect(res.status(), await res.text()).toBe(200);

    await page.goto("/inbox");
    const row = page.getByTestId("conversation-row").filter({ hasText: name });
    const waiting = row.getByTestId("conversation-waiting");
    // What is shown (the screen reader's sentence beside it is checked through the tooltip's text).
    const shown = waiting.locator("[aria-hidden=true]");
    await expect(shown).toHaveText("< 1 min");
    await expect(waiting).toHaveAttribute("data-alert", "0");

    // Two minutes later for the page: the shared minute tick moves every row, the threshold is passed.
    const reads: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/api/v1/conversations")) reads.push(r.url());
    });
    await page.clock.fastForward("02:00");
    await expect(shown).toHaveText("2 min");
    await expect(waiting).toHaveAttribute("data-alert", "1");
    await expect(waiting).toHaveAttribute("title", "Esperando respuesta hace 2 min: más que el aviso del equipo (1 min)");
    expect(reads, "the clock ticks without reading the conversations again").toEqual([]);

    // The contact panel's clocks, and the customer's box of the sandbox number in the inbox itself.
    await row.click();
    const panel = page.getByTestId("contact-panel");
    await expect(panel.getByTestId("clock-first-response")).toHaveText("Pendiente · Esperando respuesta hace 2 min");
    await panel.getByLabel("Responder como el cliente (número de prueba)").fill("Sigo esperando");
    await panel.getByRole("button", { name: "Simular respuesta" }).click();
    await expect(page.getByRole("article").filter({ hasText: "Sigo esperando" })).toBeVisible();
    // Still waiting since the first message: the second one is not answered either.
    await expect(shown).toHaveText("2 min");
    // The rows' colours (the alert's red included) against axe; the rest of the inbox has its own spec.
    await expectAccessible(page, '[data-testid="conversation-list"]');
  } finally {
    // Back as the demo had it: the other specs on this server read the default threshold.
    const reset = await api(page).patch("/api/v1/team/settings", { waiting_alert_minutes: 15 });
    expect(reset.status()).toBe(200);
  }
});
