import { expect, test, type Page } from "@playwright/test";
import { api, expectAccessible, PNG_1PX, shot, signIn, uniquePhone } from "./helpers";
import { DEMO } from "./fixtures";

/** The composer never loses or hides the agent's work. */
async function customerWrites(page: Page, from: string, text: string) {
  const res = await api(page).post("/api/v1/sandbox/inbound", { wa_number: DEMO.number, from, type: "text", payload: { text } });
  expect(res.status(), await res.text()).toBe(200);
}

function row(page: Page, name: string) {
  return page.getByTestId("conversation-row").filter({ hasText: name });
}

async function openNew(page: Page, text = "Hola") {
  const phone = uniquePhone();
  await customerWrites(page, phone, text);
  await page.reload();
  await row(page, phone).click();
  await expect(page.getByTestId("composer")).toBeVisible();
  return phone;
}

test("a reply clears the box and shows its bubble at once, in view, before the server answers", async ({ page }) => {
  await signIn(page);
  await openNew(page);
  // Hold the send for 2 s: the box and the bubble must not wait for it.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route("**/api/v1/messages/whatsapp/send", async (route) => {
    await held;
    await route.continue();
  });
  const box = page.getByLabel("Escriba un mensaje");
  await box.fill("Ya lo reviso, un momento");
  await box.press("Enter");
  await expect(box).toHaveValue("", { timeout: 5000 });
  const bubble = page.locator('article[data-direction="OUTBOUND"]').filter({ hasText: "Ya lo reviso, un momento" });
  // The send is held until release() below: whatever the wait, the bubble can only come from the
  // composer itself (this machine is shared, so the budget is generous).
  await expect(bubble).toBeVisible({ timeout: 5000 });
  await expect(bubble).toBeInViewport();
  await expect(bubble).toHaveAttribute("data-status", "QUEUED");
  release();
  // Reconciled with the server's copy: one bubble, with its real id.
  await expect.poll(async () => Number(await bubble.getAttribute("data-message-id"))).toBeLessThan(1_000_000_000);
  await expect(bubble).toHaveCount(1);
  await expect(box).toBeFocused();
});

test("a failed send gives back what was typed", async ({ page }) => {
  await signIn(page);
  await openNew(page);
  await page.route("**/api/v1/messages/whatsapp/send", (route) =>
    route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ message: "Error interno del servidor." }) }),
  );
  const box = page.getByLabel("Escriba un mensaje");
  await box.fill("Esto no debe perderse");
  await box.press("Enter");
  await expect(page.getByTestId("composer-error")).toContainText("Error interno del servidor.");
  await expect(box).toHaveValue("Esto no debe perderse");
  await expect(page.locator("article").filter({ hasText: "Esto no debe perderse" })).toHaveCount(0);
});

test("a draft per conversation survives switching conversations and a reload", async ({ page }) => {
  await signIn(page);
  const first = await openNew(page, "Primera");
  const second = uniquePhone();
  await customerWrites(page, second, "Segunda");
  await page.getByLabel("Escriba un mensaje").fill("Borrador para la primera");
  await page.getByRole("button", { name: "Botones" }).click();
  await page.getByLabel("Botón 1", { exact: true }).fill("Sí");

  await page.reload();
  await row(page, second).click();
  await expect(page.getByLabel("Escriba un mensaje")).toHaveValue("");
  await page.getByLabel("Escriba un mensaje").fill("Otro borrador");
  await row(page, first).click();
  await expect(page.getByLabel("Texto del mensaje")).toHaveValue("Borrador para la primera");
  await expect(page.getByLabel("Botón 1", { exact: true })).toHaveValue("Sí");
  await page.reload();
  await expect(page.getByLabel("Texto del mensaje")).toHaveValue("Borrador para la primera");
  await row(page, second).click();
  await expect(page.getByLabel("Escriba un mensaje")).toHaveValue("Otro borrador");
});

test("an attachment is previewed with a caption of its own; the text box is left alone", async ({ page }) => {
  await signIn(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await openNew(page);
  const box = page.getByLabel("Escriba un mensaje");
  await box.fill("Texto que no es el pie de foto");
  let uploads = 0;
  page.on("request", (r) => {
    if (r.url().includes("/api/v1/media-upload")) uploads++;
  });
  await page.getByTestId("attach-input").setInputFiles({ name: "catalogo.png", mimeType: "image/png", buffer: PNG_1PX });
  const preview = page.getByTestId("attachment-preview");
  await expect(preview).toBeVisible();
  await expect(preview.getByRole("img", { name: "Vista previa de catalogo.png" })).toBeVisible();
  await expect(page.getByTestId("attachment-name")).toContainText("catalogo.png");
  expect(uploads).toBe(0);
  await page.getByLabel("Pie de foto o comentario del adjunto").fill("El catálogo de diciembre");
  await expectAccessible(page);
  await shot(page, "composer-attachment");
  await page.getByRole("button", { name: "Enviar adjunto" }).click();
  const image = page.locator('article[data-direction="OUTBOUND"][data-type="image"]').filter({ hasText: "El catálogo de diciembre" });
  await expect(image).toBeVisible({ timeout: 5000 });
  await expect(preview).toHaveCount(0);
  await expect(box).toHaveValue("Texto que no es el pie de foto");

  // Removing a picked file sends nothing.
  await page.getByTestId("attach-input").setInputFiles({ name: "otro.png", mimeType: "image/png", buffer: PNG_1PX });
  await page.getByRole("button", { name: "Quitar adjunto" }).click();
  await expect(preview).toHaveCount(0);
  expect(uploads).toBe(1);
});

test("limits are shown as they are passed, and block the send instead of cutting", async ({ page }) => {
  await signIn(page);
  await openNew(page);
  await page.getByRole("button", { name: "Botones" }).click();
  await page.getByLabel("Texto del mensaje").fill("¿Qué prefiere?");
  const title = "Recoger en la tienda del centro";
  await page.getByLabel("Botón 1", { exact: true }).fill(title);
  await expect(page.getByLabel("Botón 1", { exact: true })).toHaveValue(title);
  await expect(page.getByLabel("Botón 1", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("composer-limits")).toHaveText(
    `Botón 1: ${title.length} de 20 caracteres como máximo. Acórtelo para poder enviar.`,
  );
  let sends = 0;
  page.on("request", (r) => {
    if (r.url().includes("/api/v1/messages/whatsapp/send")) sends++;
  });
  await page.getByLabel("Texto del mensaje").focus();
  await page.getByTestId("composer-send").click();
  await expect(page.getByLabel("Botón 1", { exact: true })).toBeFocused();
  await expect(page.getByTestId("composer-limits").locator("li")).toHaveCount(1);
  expect(sends).toBe(0);
  await page.getByLabel("Botón 1", { exact: true }).fill("En la tienda");
  await expect(page.getByTestId("composer-limits")).toHaveCount(0);

  for (const [width, name] of [
    [1440, "composer-limits"],
    [390, "composer-limits-phone"],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByLabel("Botón 1", { exact: true }).fill(title);
    await expect(page.getByTestId("composer-limits")).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await expectAccessible(page);
    await shot(page, name);
  }
});
