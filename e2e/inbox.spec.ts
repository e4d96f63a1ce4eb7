import { expect, test, type Page } from "@playwright/test";
import { api, expectAccessible, PNG_1PX, shot, signIn, uniquePhone } from "./helpers";
import { DEMO, LIVE_BASE_URL, LONG_CONTACT } from "./fixtures";

/** A customer's message, as the sandbox number receives it (what a real customer's would do). */
async function customerWrites(page: Page, from: string, text: string) {
  const res = await api(page).post("/api/v1/sandbox/inbound", { wa_number: DEMO.number, from, type: "text", payload: { text } });
  expect(res.status(), await res.text()).toBe(200);
}

function unreadInTitle(title: string): number {
  const m = /^\((\d+)\) /.exec(title);
  return m ? Number(m[1]) : 0;
}

function row(page: Page, name: string) {
  return page.getByTestId("conversation-row").filter({ hasText: name });
}

test("a customer's reply reaches the list and the open conversation live; unread badge, tab title and mark-read follow", async ({
  page,
}) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/inbox$/);
  const phone = uniquePhone();
  await customerWrites(page, phone, "Hola, ¿tienen envío hoy?");
  await page.reload();
  await expect(page.getByTestId("inbox")).toHaveAttribute("data-stream", "open");

  const r = row(page, phone);
  await expect(r.getByTestId("unread-badge")).toHaveText("1");
  await expect.poll(async () => unreadInTitle(await page.title())).toBeGreaterThanOrEqual(1);
  const before = unreadInTitle(await page.title());

  // No reload from here on: everything arrives through the event stream.
  await customerWrites(page, phone, "Es para Bogotá");
  await expect(r.getByTestId("conversation-preview")).toContainText("Es para Bogotá", { timeout: 3000 });
  await expect(r.getByTestId("unread-badge")).toHaveText("2");
  await expect.poll(async () => unreadInTitle(await page.title())).toBe(before + 1);
  await expect(page.getByTestId("conversation-row").first()).toContainText(phone);

  // Opening the conversation marks it read.
  await r.click();
  await expect(page.locator("article[data-message-id]").filter({ hasText: "Es para Bogotá" })).toBeVisible();
  await expect(r.getByTestId("unread-badge")).toHaveCount(0);
  await expect.poll(async () => unreadInTitle(await page.title())).toBe(before - 1);
  const conv = await (await api(page).get(`/api/v1/conversations/${await r.getAttribute("data-conversation-id")}`)).json();
  expect(conv.data.unread_count).toBe(0);
  await expect(page.getByTestId("window-countdown")).toContainText(/quedan 2[34] h/);

  // While it is open and seen, a new message shows in the thread and stays read.
  const t0 = Date.now();
  await customerWrites(page, phone, "¿Me confirman?");
  await expect(page.locator("article[data-message-id]").filter({ hasText: "¿Me confirman?" })).toBeVisible({ timeout: 3000 });
  expect(Date.now() - t0).toBeLessThan(3000);
  await expect.poll(async () => (await (await api(page).get(`/api/v1/conversations/${conv.data.id}`)).json()).data.unread_count).toBe(0);
});

test("scrolled far back, nothing polls; a new message, a label change and reply-to still arrive live", async ({ page }) => {
  // The page's timers run on Playwright's clock (in step with real time until told otherwise), so
  // "nothing polls" can be checked over a fast-forwarded minute instead of seconds of waiting.
  await page.clock.install();
  await signIn(page);
  await row(page, LONG_CONTACT.name).click();
  const scroller = page.getByTestId("message-scroller");
  await expect(page.locator("article[data-message-id]").first()).toBeVisible();
  // Back to the start of the conversation: every older page, by cursor, no dates asked.
  // Each scroll to the top asks for the next older page; scrolled again until the start shows.
  await expect(async () => {
    await scroller.evaluate((el) => (el.scrollTop = 0));
    await expect(scroller.getByText("Inicio de la conversación")).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });

  // With the stream up, the page makes no requests of its own while nothing happens: a minute of
  // its timers (any polling interval or refetch timer among them) runs at once.
  const calls: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/v1/") && !r.url().includes("/api/v1/events")) calls.push(r.url());
  });
  await page.clock.runFor(60_000);
  expect(calls).toEqual([]);

  await customerWrites(page, LONG_CONTACT.number, "Mensaje nuevo mientras leía lo antiguo");
  const r = row(page, LONG_CONTACT.name);
  await expect(r.getByTestId("conversation-preview")).toContainText("Mensaje nuevo mientras leía lo antiguo", { timeout: 3000 });
  await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight));
  const fresh = page.locator("article[data-message-id]").filter({ hasText: "Mensaje nuevo mientras leía lo antiguo" });
  await expect(fresh).toBeVisible();

  // A label added elsewhere shows on the row and in the contact panel.
  const conv = (await (await api(page).get(`/api/v1/conversations/${await r.getAttribute("data-conversation-id")}`)).json()).data;
  const labels = (await (await api(page).get("/api/v1/contacts/labels?per_page=20")).json()).data;
  const free = labels.find((l: { id: number }) => !conv.contact.labels.some((c: { id: number }) => c.id === l.id));
  const added = await api(page).post(`/api/v1/contacts/${conv.contact.id}/labels`, { label_ids: [free.id] });
  expect(added.ok(), await added.text()).toBe(true);
  await expect(r.getByTestId("label-chip").filter({ hasText: free.title })).toBeVisible({ timeout: 3000 });
  await expect(page.getByTestId("contact-panel").getByTestId("label-chip").filter({ hasText: free.title })).toBeVisible();

  // Reply-to: the composer says which message is answered.
  await fresh.hover();
  await page.getByTestId("reply-to-button").last().click();
  await expect(page.getByTestId("replying-to")).toContainText("Mensaje nuevo mientras leía lo antiguo");
});

test("a customer who never wrote gets the template form instead of the composer", async ({ page }) => {
  await signIn(page);
  const phone = uniquePhone();
  const sent = await api(page).post("/api/v1/message_templates/send", {
    wa_number: DEMO.number,
    destination: phone,
    template_name: "recordatorio_cita",
    body_params: [
      { key: "1", value: "lunes" },
      { key: "2", value: "10:00" },
    ],
  });
  expect(sent.status(), await sent.text()).toBe(200);
  // A conversation the customer never wrote in is not under "Abiertas" but under its own filter.
  await page.goto("/inbox?status=outbound");
  await row(page, phone).click();
  await expect(page.getByTestId("window-countdown")).toContainText("aún no ha escrito");
  await expect(page.getByTestId("composer")).toHaveCount(0);
  await expect(page.getByTestId("window-closed")).toContainText(
    "La ventana de 24 horas para responder a este cliente está cerrada: envíe una plantilla.",
  );
  await page.getByRole("button", { name: "Enviar una plantilla" }).click();
  await expect(page.getByTestId("template-form").getByLabel(/Destinatario|Destino/)).toHaveValue(phone);
});

test("assignment tabs: take a conversation with one click, it moves between Sin asignar and Mías; resolve and reopen", async ({ page }) => {
  await signIn(page);
  const phone = uniquePhone();
  await customerWrites(page, phone, "Necesito ayuda");
  await page.reload();
  await page.getByRole("tab", { name: "Sin asignar" }).click();
  await row(page, phone).click();
  await page.getByRole("button", { name: "Asignármela" }).click();
  await expect(page.getByTestId("assignee")).toHaveText("Asignada a mí");
  await expect(row(page, phone)).toHaveCount(0);
  await page.getByRole("tab", { name: "Mías" }).click();
  await expect(row(page, phone)).toBeVisible();
  await page.getByRole("button", { name: "Liberar" }).click();
  await expect(row(page, phone)).toHaveCount(0);
  await page.getByRole("tab", { name: "Todas" }).click();
  await page.getByTestId("resolve").click();
  await expect(row(page, phone)).toHaveCount(0);
  await page.getByLabel("Estado").selectOption("resolved");
  await expect(row(page, phone)).toBeVisible();
  await page.getByRole("button", { name: "Reabrir" }).click();
  await expect(row(page, phone)).toHaveCount(0);
});

test("composer limits are said before they cut: nothing typed is truncated", async ({ page }) => {
  await signIn(page);
  const phone = uniquePhone();
  await customerWrites(page, phone, "Hola");
  await page.reload();
  await row(page, phone).click();
  await page.getByRole("button", { name: "Botones" }).click();
  await page.getByLabel("Botón 1", { exact: true }).fill("Un título demasiado largo para un botón");
  await expect(page.getByLabel("Botón 1", { exact: true })).toHaveValue("Un título demasiado largo para un botón");
  await expect(page.getByTestId("composer-limits")).toContainText("Botón 1: 39 de 20 caracteres como máximo");
  await page.getByRole("button", { name: "Añadir botón" }).click();
  await page.getByRole("button", { name: "Añadir botón" }).click();
  await expect(page.getByRole("button", { name: "Añadir botón" })).toHaveCount(0);
  await page.getByRole("button", { name: "Lista" }).click();
  await page.getByLabel("Fila 1", { exact: true }).fill("Una fila con un título larguísimo");
  await expect(page.getByLabel("Fila 1", { exact: true })).toHaveValue("Una fila con un título larguísimo");
  await expect(page.getByTestId("composer-limits")).toContainText("Fila 1: 33 de 24 caracteres como máximo");
  for (let i = 0; i < 9; i++) await page.getByRole("button", { name: "Añadir fila" }).click();
  await expect(page.getByRole("button", { name: "Añadir fila" })).toHaveCount(0);
});

/**
 * Delivery needs a worker: these run on the suite's second server (playwright.config.ts), which
 * has the delivery worker in its process and a fast sandbox walk, on a database of its own.
 */
test.describe("the agent replies and watches the ticks", () => {
  test.use({ baseURL: LIVE_BASE_URL });

  test("text, an image and quick-reply buttons reach READED", async ({ page }) => {
    test.setTimeout(120_000);
    // Tall enough that the virtualized thread keeps all four bubbles mounted while their ticks move.
    await page.setViewportSize({ width: 1280, height: 1600 });
    await signIn(page);
    const phone = uniquePhone();
    await customerWrites(page, phone, "¿Cuál es el horario?");
    await page.reload();
    await row(page, phone).click();

    await page.getByLabel("Escriba un mensaje").fill("Abrimos de 8 a 18 h");
    await page.getByRole("button", { name: "Enviar", exact: true }).click();
    const text = page.locator('article[data-direction="OUTBOUND"]').filter({ hasText: "Abrimos de 8 a 18 h" });
    await expect(text).toBeVisible({ timeout: 5000 });

    await page.getByTestId("attach-input").setInputFiles({ name: "foto.png", mimeType: "image/png", buffer: PNG_1PX });
    await page.getByRole("button", { name: "Enviar adjunto" }).click();
    const image = page.locator('article[data-direction="OUTBOUND"][data-type="image"]');
    await expect(image).toBeVisible({ timeout: 5000 });

    await page.getByRole("button", { name: "Botones" }).click();
    await page.getByLabel("Texto del mensaje").fill("¿Le ayudo con algo más?");
    await page.getByLabel("Botón 1", { exact: true }).fill("Sí");
    await page.getByRole("button", { name: "Añadir botón" }).click();
    await page.getByLabel("Botón 2", { exact: true }).fill("No, gracias");
    await page.getByRole("button", { name: "Enviar", exact: true }).click();
    const qr = page.locator('article[data-direction="OUTBOUND"]').filter({ hasText: "¿Le ayudo con algo más?" });
    await expect(qr).toBeVisible({ timeout: 5000 });

    for (const bubble of [text, image, qr]) await expect(bubble).toHaveAttribute("data-status", "READED", { timeout: 30_000 });
  });
});

test("screenshots at desktop and phone width, accessible, phone views with back navigation", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByTestId("conversation-row").filter({ hasText: "María" }).first().click();
  await expect(page.locator("article[data-message-id]").first()).toBeVisible();
  await expectAccessible(page);
  await shot(page, "inbox");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/inbox");
  await expect(page.getByTestId("conversation-row").first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await shot(page, "inbox-phone-list");
  await page.getByTestId("conversation-row").filter({ hasText: "María" }).first().click();
  await expect(page.locator("article[data-message-id]").first()).toBeVisible();
  await expect(page.getByTestId("conversation-list")).toBeHidden();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await shot(page, "inbox-phone-conversation");
  await page.getByTestId("thread-title").click();
  await expect(page.getByTestId("contact-panel")).toBeVisible();
  await shot(page, "inbox-phone-contact");
  await page.goBack();
  await expect(page.getByTestId("contact-panel")).toBeHidden();
  await page.goBack();
  await expect(page.getByTestId("conversation-list")).toBeVisible();
});
