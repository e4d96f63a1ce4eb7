import { expect, test, type Locator, type Page } from "@playwright/test";
import { expectAccessible, shot, signIn } from "./helpers";
import { RENDER, RENDER_CONTACT } from "./fixtures";

/** The message renderers, in a real browser (data: e2e/prepare-db.ts and the demo seed). */

// A browser whose own locale is US English: the UI (Spanish by default) must not write dates its way.
test.use({ locale: "en-US" });

async function openConversation(page: Page, search: string, name: string) {
  await page.goto("/history");
  await page.getByTestId("customer-search").fill(search);
  await expect(page.getByRole("option").filter({ hasText: name }).first()).toBeVisible();
  await page.getByRole("option").filter({ hasText: name }).first().getByRole("button").click();
  await expect(page.getByTestId("current-customer")).toBeVisible();
}

const byType = (page: Page, type: string): Locator => page.locator(`article[data-type="${type}"]`);

test("WhatsApp's own types, ticks, failures, contacts, dates and routing notes read as WhatsApp shows them", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 4000 });
  await signIn(page);
  await openConversation(page, RENDER_CONTACT.number, RENDER_CONTACT.name);
  const log = page.getByTestId("message-scroller");
  await expect(byType(page, "template")).toBeVisible();

  // A reaction sits on the message it reacts to; one to a message not on the page is a small line.
  const target = page.locator("article[data-message-id]").filter({ hasText: RENDER.targetText });
  await expect(target.getByTestId("reactions")).toHaveText("👍");
  await expect(target.getByTestId("reactions")).toHaveAttribute("aria-label", "Reacciones: 👍 del cliente");
  await expect(byType(page, "reaction")).toHaveCount(2);
  await expect(byType(page, "reaction").first()).toContainText("Reaccionó 🎉 a un mensaje");
  await expect(byType(page, "reaction").nth(1)).toContainText("Quitó su reacción a un mensaje");
  await expect(log.locator('[data-renderer="fallback"]')).toHaveCount(0);

  // An order: products, quantities and the total.
  const order = byType(page, "order").filter({ hasText: "SACO-ROJO-M" });
  await expect(order.getByTestId("order-line")).toHaveCount(2);
  await expect(order.getByTestId("order-line").first()).toContainText("2");
  await expect(order.getByTestId("order-line").first()).toContainText(/89\.900\sCOP/);
  await expect(order.getByTestId("order-total")).toHaveText(/^214\.800\sCOP$/);
  await expect(order).toContainText("Para el viernes");
  // An order whose items are not a list still reads as an order, without a made-up total.
  const broken = byType(page, "order").filter({ hasNotText: "SACO-ROJO-M" });
  await expect(broken).toContainText("Pedido");
  await expect(broken.getByTestId("order-total")).toHaveCount(0);

  // A Flow reply: its answers as a list, never its flow token.
  const flow = byType(page, "nfm_reply").first();
  await expect(flow.getByTestId("flow-answer")).toHaveText(["TallaMediana", "ComentariosDe lana"]);
  await expect(flow).toContainText("Formulario enviado");
  await expect(log).not.toContainText("e2e-secret-flow-token");
  await expect(byType(page, "nfm_reply").nth(1)).toContainText("{not json");

  // ```monospace```, with WhatsApp's other markers still working beside it.
  const mono = byType(page, "text").filter({ hasText: RENDER.monospace });
  await expect(mono.locator('code[data-format="monospace"]')).toHaveText(RENDER.monospace);
  expect(await mono.locator('code[data-format="monospace"]').evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/mono/i);
  await expect(mono.locator("strong")).toHaveText("24");
  await expect(mono).not.toContainText("```");

  // SENDED and SENT are told apart; a FAILED message says why, in the bubble.
  const sended = mono.locator('[role="img"][data-status="SENDED"]');
  const sent = byType(page, "text").filter({ hasText: "Mensaje enviado" }).locator('[role="img"][data-status="SENT"]');
  await expect(sended.locator('svg[data-tick="sended"]')).toHaveCount(1);
  await expect(sent.locator('svg[data-tick="sent"]')).toHaveCount(1);
  expect(await sended.innerHTML()).not.toBe(await sent.innerHTML());
  const failed = byType(page, "text").filter({ hasText: "Mensaje que no salió" });
  await expect(failed.getByTestId("failure-reason")).toBeVisible();
  // In the UI's language, with the code and Meta's own words after it.
  await expect(failed.getByTestId("failure-reason")).toContainText(
    `No se envió: El número del destinatario no está en la lista de números permitidos de prueba (131030: Recipient not in allowed list: ${RENDER.failedDetails})`,
  );

  // Shared contacts: kinds in Spanish, birthday as a Spanish date.
  const card = byType(page, "contacts").getByTestId("contact-card");
  await expect(card).toContainText("Teléfono (Móvil)");
  await expect(card).toContainText("Teléfono (Trabajo)");
  await expect(card).toContainText("Correo (Casa)");
  await expect(card).not.toContainText(/\b(CELL|WORK|HOME)\b/);
  await expect(card).toContainText("14 de mayo de 1990");

  // Dates and times follow the UI's language, not the browser's US English.
  const call = byType(page, "call_permission_reply");
  await expect(call).toContainText(/Vence: .*nov.* 2026/);
  await expect(call).not.toContainText(/\d{1,2}\/\d{1,2}\/\d{4}|AM|PM/);
  const times = await log.locator("article time").allInnerTexts();
  expect(times.length).toBeGreaterThan(5);
  for (const time of times) expect(time).toMatch(/^\d{1,2}:\d{2}$/);

  // `unknown` says it in our words; the provider's English is there once, folded away.
  const unknown = byType(page, "unknown");
  await expect(unknown).toContainText("Mensaje no compatible");
  await expect(unknown).toContainText("Tipo original: hologram");
  expect(await unknown.innerText()).not.toContain("Message type unknown");
  await unknown.getByText("Detalle del proveedor").click();
  expect((await unknown.innerText()).split("Message type unknown").length - 1).toBe(1);

  // A template's document is named after the template, not the stored file's random id.
  await expect(byType(page, "template").locator('[data-format="DOCUMENT"]')).toContainText("factura_mensual.pdf");
  await expect(byType(page, "template")).not.toContainText("5f0c2a1e");

  // Three customer bubbles of one routed reply: one routing note.
  await expect(log.getByTestId("routed-to")).toHaveCount(1);

  await expectAccessible(page);
  await shot(page, "renderers-types-all");
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, "renderers-types");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "renderers-types-phone");
});

test("in English, times and amounts are written the English way", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 4000 });
  await signIn(page);
  await page.evaluate(() => window.localStorage.setItem("wa_locale", "en"));
  await openConversation(page, RENDER_CONTACT.number, RENDER_CONTACT.name);
  const order = byType(page, "order").filter({ hasText: "SACO-ROJO-M" });
  await expect(order.getByTestId("order-total")).toHaveText(/^COP\s214,800$/);
  await expect(byType(page, "contacts").getByTestId("contact-card")).toContainText("Phone (Mobile)");
  await expect(byType(page, "contacts").getByTestId("contact-card")).toContainText("May 14, 1990");
  const times = await page.getByTestId("message-scroller").locator("article time").allInnerTexts();
  for (const time of times) expect(time).toMatch(/^\d{1,2}:\d{2}\s(AM|PM)$/);
});

test("the demo's media can be seen and played, and María's reaction sits on the photo she reacted to", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 5200 });
  await signIn(page);
  await openConversation(page, "María", "María López");

  const sticker = byType(page, "sticker").locator("img");
  await sticker.scrollIntoViewIfNeeded();
  await expect.poll(() => sticker.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(16);

  const image = byType(page, "image").filter({ hasText: "¿Lo tienen en rojo?" }).locator("img");
  await image.scrollIntoViewIfNeeded();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThanOrEqual(320);

  const video = byType(page, "video").locator("video");
  await video.scrollIntoViewIfNeeded();
  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(2);
  expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeGreaterThan(0);
  expect(await video.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBeGreaterThan(16);

  const photo = byType(page, "image").filter({ hasText: "Sí, este es el rojo." });
  await expect(photo.getByTestId("reactions")).toHaveText("😍");
  await expect(byType(page, "order")).toContainText("SACO-ROJO-M");
  await expect(byType(page, "nfm_reply")).toContainText("Mediana");
  await expect(byType(page, "text").locator('code[data-format="monospace"]')).toHaveText("NAVIDAD20");
  await video.evaluate((v: HTMLVideoElement) => v.pause());
  await page.setViewportSize({ width: 1280, height: 900 });
  await sticker.scrollIntoViewIfNeeded();
  await shot(page, "renderers-demo-media");
});

test("/docs renders its Markdown and is linked from the dashboard; /favicon.ico exists", async ({ page }) => {
  await signIn(page);
  const link = page.getByTestId("docs-link");
  await expect(link).toHaveAttribute("href", "/docs");
  await link.click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const intro = page.locator("main > div").first();
  await expect(intro.locator("code").first()).toHaveText("Authorization: Bearer <token>");
  await expect(intro).not.toContainText("`");
  // Operation descriptions too: `results` of send_bulk is code, not text between backticks.
  await expect(page.locator("main section code", { hasText: /^results$/ }).first()).toBeVisible();
  expect(await page.locator("main").innerText()).not.toMatch(/`[^`\n]+`/);
  await shot(page, "docs");

  const icon = await page.request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
  expect((await icon.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
});
