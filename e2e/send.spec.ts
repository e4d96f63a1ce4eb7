import { expect, test, type Page } from "@playwright/test";
import { api, PDF_MIN, PNG_1PX, shot, signIn, unique, uniquePhone } from "./helpers";
import { DEMO } from "./fixtures";

/** The message shown beside a field (Field renders it as `#<id>-error`). */
const fieldError = (page: Page, id: string) => page.locator(`[id="${id}-error"]`);

async function chooseTemplate(page: Page, name: string) {
  await page.getByTestId("template-search").fill(name);
  await page.getByRole("radio", { name: new RegExp(name) }).check();
}

/** Adds an option the lists would not offer (a stale or tampered form), to reach the server's checks. */
async function forceOption(page: Page, selectId: string, value: string) {
  await page.evaluate(
    ([id, v]) => {
      const select = document.getElementById(id) as HTMLSelectElement;
      const option = document.createElement("option");
      option.value = v;
      option.textContent = v;
      select.appendChild(option);
    },
    [selectId, value],
  );
  await page.locator(`[id="${selectId}"]`).selectOption(value);
}

test.beforeEach(async ({ page }) => {
  await signIn(page);
  // Sign-in lands on the inbox; the send form is one page away.
  await page.goto("/send");
});

test("sends a template with parameters and an attachment, then sees it QUEUED in the viewer", async ({ page }) => {
  const destination = uniquePhone();
  const group = unique("e2e-send");
  await chooseTemplate(page, "promo_navidad");
  const preview = page.getByTestId("template-preview");
  await expect(preview).toContainText("¡{{1}}, esta Navidad tienes {{2}} de descuento");
  await expect(preview).toContainText("Me interesa");
  await expect(preview).toContainText("Responde SALIR");

  await page.getByLabel("Cuerpo {{1}}").fill("Lucía");
  await page.getByLabel("Cuerpo {{2}}").fill("35%");
  await expect(preview).toContainText("¡Lucía, esta Navidad tienes 35% de descuento");

  const picker = page.getByLabel("Adjunto");
  await expect(picker).toHaveAttribute("accept", /\.png/);
  await expect(picker).not.toHaveAttribute("accept", /\.pdf|\.mp4/);
  await picker.setInputFiles({ name: "promo.png", mimeType: "image/png", buffer: PNG_1PX });
  await expect(page.getByTestId("media-path")).toContainText(/uploads\/team\d+\/.+\.png/);

  await page.getByLabel("Destino").fill(`+${destination}`);
  await page.getByLabel("Grupo de envío").fill(group);
  await shot(page, "send-filled");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();

  const success = page.getByTestId("send-success");
  await expect(success).toBeVisible();
  await expect(success).toContainText(/[0-9a-f-]{36}/);
  await success.getByRole("link").click();

  await expect(page).toHaveURL(/\/conversations\?/);
  const message = page.locator('article[data-type="template"]').last();
  await expect(message).toHaveAttribute("data-status", "QUEUED");
  await expect(message).toContainText("¡Lucía, esta Navidad tienes 35% de descuento");
  await expect(message.locator('[data-status="QUEUED"][role="img"]')).toHaveAttribute("aria-label", "En cola");
  await expect(message.locator('[data-part="header"] img')).toHaveAttribute("src", /\/api\/v1\/media\/uploads\/team\d+\/.+\.png$/);
  await shot(page, "conversation-after-send");
});

test("shows each exact error of the send form beside its field", async ({ page }) => {
  // Nothing filled: the shared zod schema answers in the browser.
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(fieldError(page, "destination")).toHaveText("El campo destination es obligatorio.");
  await expect(page.locator('[data-field-error="template_name"]')).toHaveText("El campo template_name es obligatorio.");

  await page.getByLabel("Destino").fill("12-34");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(fieldError(page, "destination")).toHaveText(
    "El campo destination debe ser un número de teléfono válido: de 8 a 15 dígitos con el código de país.",
  );
  await page.getByLabel("Destino").fill(uniquePhone());

  await chooseTemplate(page, "confirmacion_pedido");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(fieldError(page, "body_params.0.value")).toHaveText("El campo body_params.0.value es obligatorio.");
  await page.getByLabel("Encabezado {{1}}").fill("Ana");
  await page.getByLabel("Cuerpo {{1}}").fill("B-77");
  await page.getByLabel("Cuerpo {{2}}").fill("martes");
  await expect(page.getByTestId("template-preview")).toContainText("Hola Ana");

  // The contract's messages (spec 4.1).
  await page.getByLabel("Enviar respuestas a").selectOption("CHATBOT");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(fieldError(page, "bot_id")).toHaveText("El atributo bot_id es requerido cuando response_handler es CHATBOT");

  await forceOption(page, "bot_id", "999999");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(fieldError(page, "bot_id")).toHaveText("El bot con el ID: 999999 no existe!");

  await forceOption(page, "response_handler", "WEBHOOK");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(fieldError(page, "response_handler")).toHaveText("El atributo response_handler debe ser CAMPAIGN o CHATBOT");

  await page.getByLabel("Enviar respuestas a").selectOption("CAMPAIGN");
  await forceOption(page, "campaign_id", "999999");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(fieldError(page, "campaign_id")).toHaveText("La campaña con el ID: 999999 no existe!");
  // Taken while the server's message stands beside its field.
  await shot(page, "send-errors");
  await page.getByLabel("Campaña").selectOption("");
});

test("refuses an attachment whose format does not match the template's header", async ({ page }) => {
  await chooseTemplate(page, "promo_navidad");
  await page.getByLabel("Cuerpo {{1}}").fill("Ana");
  await page.getByLabel("Cuerpo {{2}}").fill("10%");
  await page.getByLabel("Destino").fill(uniquePhone());
  await page.getByLabel("Adjunto").setInputFiles({ name: "factura.pdf", mimeType: "application/pdf", buffer: PDF_MIN });
  await expect(page.getByTestId("media-path")).toContainText(".pdf");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(fieldError(page, "media_file")).toHaveText(
    "El archivo de media_path debe tener extensión .jpg, .jpeg o .png para una plantilla con encabezado IMAGE.",
  );
});

test("on the sandbox number the agent answers as the customer; the reply shows with where it was routed", async ({ page }) => {
  const destination = uniquePhone();
  const calls = api(page);
  const campaigns = await (await calls.get("/api/v1/campaigns")).json();
  const promo = campaigns.data.find((c: { name: string }) => c.name === "Promo Navidad");
  const sent = await calls.post("/api/v1/message_templates/send", {
    wa_number: DEMO.number,
    destination,
    template_name: "recordatorio_cita",
    body_params: [
      { key: "1", value: "jueves" },
      { key: "2", value: "16:00" },
    ],
    response_handler: "CAMPAIGN",
    campaign_id: promo.id,
  });
  expect(sent.status()).toBe(200);

  await page.goto(`/conversations?wa_number=${DEMO.number}&customer=${destination}`);
  await expect(page.locator('article[data-type="template"]')).toContainText("Te recordamos tu cita el jueves a las 16:00.");
  const form = page.getByTestId("sandbox-reply");
  await form.getByLabel("Responder como el cliente (número de prueba)").fill("Sí, ahí estaré");
  await form.getByRole("button", { name: "Simular respuesta" }).click();

  const reply = page.locator('article[data-direction="INBOUND"]').filter({ hasText: "Sí, ahí estaré" });
  await expect(reply).toBeVisible();
  await expect(reply.getByTestId("routed-to")).toHaveText("↳ Enrutado a campaña «Promo Navidad» · respuesta a la última plantilla enviada");
  await shot(page, "conversation-sandbox-reply");
});
