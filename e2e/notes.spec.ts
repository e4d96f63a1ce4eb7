import { expect, test, type Page } from "@playwright/test";
import { api, expectAccessible, shot, signIn, uniquePhone } from "./helpers";
import { DEMO } from "./fixtures";

/** Private notes, apart from the messages, live on the other agents' screens. */
async function customerWrites(page: Page, from: string, text: string) {
  const res = await api(page).post("/api/v1/sandbox/inbound", { wa_number: DEMO.number, from, type: "text", payload: { text } });
  expect(res.status(), await res.text()).toBe(200);
}

test("a private note shows apart from the messages, signed, and reaches another screen live; never the history", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const phone = uniquePhone();
  await customerWrites(page, phone, "¿Me pueden facturar a nombre de la empresa?");
  await page.reload();
  await page.getByTestId("conversation-row").filter({ hasText: phone }).click();
  await expect(page).toHaveURL(/[?&]c=\d+/);
  const url = page.url();

  // A second agent's screen on the same conversation, with its own event stream.
  const other = await (await browser.newContext({ locale: "es-CO", timezoneId: "UTC" })).newPage();
  await other.setViewportSize({ width: 1440, height: 900 });
  await signIn(other);
  await other.goto(url);
  await expect(other.getByTestId("inbox")).toHaveAttribute("data-stream", "open");
  await expect(other.locator("article[data-message-id]").first()).toBeVisible();

  await page.getByRole("button", { name: "Nota privada" }).click();
  const box = page.getByLabel(/Nota privada: solo la ven los agentes/);
  await box.fill("Pide factura a nombre de Comercial Andina SAS, NIT pendiente.");
  await box.press("Enter");
  await expect(box).toHaveValue("");
  const note = page.getByTestId("note").filter({ hasText: "Comercial Andina SAS" });
  await expect(note).toBeVisible();
  await expect(note).toContainText("Nota privada");
  await expect(note.getByTestId("note-author")).toHaveText(DEMO.agentName);
  await expect(note).toHaveAttribute("aria-label", `Nota privada de ${DEMO.agentName}`);
  // Unmistakably apart: yellow, not a bubble, not an article (messages are articles).
  // Tailwind's amber-50, a pale yellow (read back as RGB through a canvas: Chromium reports it in lab()).
  const [r, g, b] = await note.evaluate((el) => {
    const ctx = document.createElement("canvas").getContext("2d")!;
    ctx.fillStyle = getComputedStyle(el).backgroundColor;
    ctx.fillRect(0, 0, 1, 1);
    return [...ctx.getImageData(0, 0, 1, 1).data];
  });
  expect(r).toBeGreaterThan(240);
  expect(g).toBeGreaterThan(235);
  expect(r - b).toBeGreaterThan(12);
  await expect(page.locator("article").filter({ hasText: "Comercial Andina SAS" })).toHaveCount(0);

  const t0 = Date.now();
  await expect(other.getByTestId("note").filter({ hasText: "Comercial Andina SAS" })).toBeVisible({ timeout: 3000 });
  expect(Date.now() - t0).toBeLessThan(3000);

  // Not a message: the history does not have it, the list's preview is still the customer's.
  const today = new Date().toISOString().slice(0, 10);
  const history = await api(page).get(
    `/api/v1/messages/whatsapp/history?wa_number=${DEMO.number}&customer_source=${phone}&from_date=${today}&to_date=${today}`,
  );
  expect(await history.text()).not.toContain("Comercial Andina");
  await expect(page.getByTestId("conversation-row").filter({ hasText: phone }).getByTestId("conversation-preview")).toContainText(
    "facturar",
  );

  // A reply after the note comes after it in the thread; a reload keeps both in order.
  await page.getByRole("button", { name: "Respuesta al cliente" }).click();
  await page.getByLabel("Escriba un mensaje").fill("Claro, envíenos el NIT por favor.");
  await page.getByLabel("Escriba un mensaje").press("Enter");
  const reply = page.locator('article[data-direction="OUTBOUND"]').filter({ hasText: "envíenos el NIT" });
  await expect(reply).toBeVisible();
  await page.reload();
  await expect(note).toBeVisible();
  const order = await page
    .locator('[data-testid="note"], article[data-message-id]')
    .evaluateAll((els) => els.map((e) => e.textContent ?? ""));
  const at = (s: string) => order.findIndex((x) => x.includes(s));
  expect(at("facturar")).toBeLessThan(at("Comercial Andina"));
  expect(at("Comercial Andina")).toBeLessThan(at("envíenos el NIT"));

  await expectAccessible(page);
  await shot(page, "notes");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("button", { name: "Nota privada" }).click();
  await expect(note).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await shot(page, "notes-phone");
  await other.context().close();
});
