import { expect, test, type Locator, type Page } from "@playwright/test";
import { clickAndWatch, shot, signIn } from "./helpers";
import { DEMO, JS_URL, LONG_CONTACT, XSS_CONTACT } from "./fixtures";

async function openConversation(page: Page, search: string, name: string) {
  await page.goto("/history");
  await page.getByTestId("customer-search").fill(search);
  await page.getByRole("option").filter({ hasText: name }).first().getByRole("button").click();
  await expect(page.getByTestId("current-customer")).toBeVisible();
}

const byType = (page: Page, type: string): Locator => page.locator(`article[data-type="${type}"]`);

test("the demo conversation shows every payload type of the contract, recognisably", async ({ page }) => {
  // A tall window keeps the whole (virtualized) demo conversation rendered at once.
  await page.setViewportSize({ width: 1280, height: 5200 });
  await signIn(page);
  await openConversation(page, "María", "María López");
  await expect(byType(page, "text").first()).toBeVisible();

  // Text, with the ad-referral card and links only for http(s).
  const referral = page.getByTestId("referral");
  await expect(referral).toContainText("Navidad en Tienda Demo");
  await expect(referral.getByRole("link", { name: "https://www.instagram.com/p/DEMO123/" })).toHaveAttribute(
    "href",
    "https://www.instagram.com/p/DEMO123/",
  );
  await expect(byType(page, "text").filter({ hasText: "¡Perfecto, gracias!" })).toBeVisible();

  // Media.
  const image = byType(page, "image").filter({ hasText: "¿Lo tienen en rojo?" });
  await expect(image.locator("img")).toHaveAttribute("src", /^http.*\/api\/v1\/media\/uploads\//);
  await expect(byType(page, "video").locator("video")).toHaveAttribute("src", /^http/);
  await expect(byType(page, "video")).toContainText("Así me quedó el anterior");
  await expect(byType(page, "audio").locator("audio")).toHaveAttribute("src", /^http/);
  await expect(byType(page, "sticker").locator("img")).toHaveAttribute("alt", "Sticker");
  await expect(byType(page, "document").getByTestId("document-name")).toHaveText(/\.pdf$/);
  await expect(byType(page, "document")).toContainText("Catálogo completo");

  // Location and shared contacts.
  await expect(byType(page, "location")).toContainText("Tienda Demo Chapinero");
  await expect(byType(page, "location")).toContainText("Cra. 13 #54-20, Bogotá");
  await expect(byType(page, "location").getByRole("link", { name: "Ver en el mapa" })).toHaveAttribute(
    "href",
    /openstreetmap\.org.*4\.6533326/,
  );
  const card = byType(page, "contacts").getByTestId("contact-card");
  await expect(card).toContainText("Pedro López");
  await expect(card).toContainText("+57 310 555 1234");
  await expect(card).toContainText("pedro.lopez@example.com");
  await expect(card).toContainText("Ferretería López");

  // Templates: header, body, footer, buttons.
  const promo = byType(page, "template").filter({ hasText: "esta Navidad tienes 20%" });
  await expect(promo.locator('[data-part="header"] img')).toBeVisible();
  await expect(promo.locator('[data-part="footer"]')).toContainText("Responde SALIR");
  await expect(promo.locator('[data-part="buttons"]')).toContainText("Me interesa");
  await expect(promo.getByRole("link", { name: "Ver catálogo" })).toHaveAttribute("href", "https://tienda.example.com/navidad");
  await expect(byType(page, "template").filter({ hasText: "Tu pedido A-1024 llega el lunes." }).locator('[data-part="header"]')).toHaveText(
    "Hola María",
  );
  await expect(byType(page, "template").locator('[data-format="DOCUMENT"]').first()).toBeVisible();
  await expect(byType(page, "template").locator('[data-format="VIDEO"] video').first()).toBeVisible();

  // Interactive.
  const list = byType(page, "list");
  await expect(list).toContainText("Catálogo de Navidad");
  await list.getByText("Ver categorías").click();
  await expect(list).toContainText("Vestidos");
  await expect(list).toContainText("Luces y adornos");
  await expect(byType(page, "quick_reply")).toContainText("¿En qué te podemos ayudar?");
  await expect(byType(page, "quick_reply")).toContainText("Hablar con un agente");
  await expect(byType(page, "list_reply")).toContainText("Sacos");
  await expect(byType(page, "list_reply")).toContainText("Respuesta de lista");
  await expect(byType(page, "button_reply")).toContainText("Ver catálogo");
  await expect(byType(page, "button")).toContainText("Me interesa");
  await expect(byType(page, "button")).toContainText("Botón de plantilla");

  // System, unknown/unsupported, calls.
  await expect(byType(page, "system")).toContainText("El cliente cambió de número");
  await expect(byType(page, "system")).toContainText("573009870011");
  await expect(byType(page, "unknown")).toContainText("Message type is currently not supported.");
  await expect(byType(page, "unknown")).toContainText("131051");
  await expect(byType(page, "unsupported")).toContainText("Unsupported message type");
  await expect(byType(page, "call_permission_request")).toContainText("¿Podemos llamarte para confirmar la talla?");
  await expect(byType(page, "call_permission_reply")).toContainText("Aceptó las llamadas");
  await expect(byType(page, "call_permission_reply")).toContainText("Por acción del cliente");

  // Sides, senders and status ticks.
  await expect(page.locator('article[data-direction="INBOUND"]').first()).toContainText("Cliente");
  await expect(page.locator('article[data-direction="OUTBOUND"]').filter({ hasText: "Te ayudo con los sacos" })).toContainText(
    DEMO.agentName,
  );
  for (const [status, label] of [
    ["QUEUED", "En cola"],
    ["SENDED", "Entregado al canal"],
    ["SENT", "Enviado"],
    ["DELIVERED", "Entregado"],
    ["READED", "Leído"],
  ]) {
    await expect(page.locator(`[role="img"][data-status="${status}"]`).first()).toHaveAttribute("aria-label", label);
  }
  await expect(page.locator('[role="img"][data-status="FAILED"]').first()).toHaveAttribute("title", /^Falló/);
  await expect(page.getByTestId("day-separator").first()).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, "conversation-demo");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "conversation-demo-phone");
});

test("older messages load while scrolling up a long conversation", async ({ page }) => {
  await signIn(page);
  await openConversation(page, LONG_CONTACT.number, LONG_CONTACT.name);
  const scroller = page.getByTestId("message-scroller");
  await expect(page.getByText(`Mensaje número ${LONG_CONTACT.messages}`, { exact: true })).toBeVisible();
  // Only a window of the 160 messages is in the DOM.
  expect(await page.locator("article[data-message-id]").count()).toBeLessThan(60);
  await expect(page.getByText("Mensaje número 1", { exact: true })).toHaveCount(0);
  // Each older page keeps the message that was on screen in place, so the agent scrolls on up.
  const first = page.getByText("Mensaje número 1", { exact: true });
  const start = page.getByText("Inicio de la conversación en este rango");
  // Scrolled up a screenful at a time until the first message and the start show (each older
  // page loads as the top comes near).
  await expect(async () => {
    await scroller.evaluate((el) => el.scrollBy(0, -1500));
    await expect(first).toBeVisible({ timeout: 1000 });
    await expect(start).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByText("Mensaje número 1", { exact: true })).toBeVisible();
  await expect(page.getByText("Inicio de la conversación en este rango")).toBeVisible();
  await shot(page, "conversation-long-top");
});

test("hostile payloads render as inert text: no script runs, no javascript: link or source", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    return d.dismiss();
  });
  await signIn(page);
  await openConversation(page, XSS_CONTACT.number, XSS_CONTACT.name);
  const text = byType(page, "text");
  await expect(text).toContainText("<script>window.__xss = 1</script>");
  await expect(text).toContainText('<img src=x onerror="window.__xss = 2">');
  await expect(byType(page, "image")).toContainText(JS_URL);
  await expect(byType(page, "document")).toContainText("<script>.pdf");
  await expect(byType(page, "contacts")).toContainText("<script>alert(1)</script>");
  await expect(byType(page, "template")).toContainText("Botón peligroso");
  // An unknown type falls back to a readable view of its fields.
  await expect(byType(page, "poll")).toContainText("question");
  await expect(byType(page, "poll")).toContainText("<script>window.__xss=6</script>¿Encuesta?");

  const log = page.getByTestId("message-scroller");
  await expect(log.locator("script")).toHaveCount(0);
  await expect(log.locator('[href^="javascript:" i], [src^="javascript:" i]')).toHaveCount(0);
  await expect(log.locator("img[src='x']")).toHaveCount(0);
  // Clicked, the dangerous button starts nothing, and no script ran by then.
  expect(await clickAndWatch(page, page.getByText("Botón peligroso"))).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
  await shot(page, "conversation-xss");
});

test("the viewer's old address /conversations moves permanently to /history, with its query", async ({ page }) => {
  await signIn(page);
  const res = await page.request.get(`/conversations?wa_number=${DEMO.number}&customer=${DEMO.maria}`, { maxRedirects: 0 });
  expect(res.status()).toBe(308);
  expect(res.headers()["location"]).toBe(`/history?wa_number=${DEMO.number}&customer=${DEMO.maria}`);
  await page.goto(`/conversations?wa_number=${DEMO.number}&customer=${DEMO.maria}`);
  await expect(page).toHaveURL(new RegExp(`/history\\?wa_number=${DEMO.number}&customer=${DEMO.maria}$`));
  await expect(page.getByTestId("current-customer")).toBeVisible();
});
