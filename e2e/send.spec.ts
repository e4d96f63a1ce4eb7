import { expect, test, type Page } from "@playwright/test";
import { api, expectAccessible, PDF_MIN, PNG_1PX, shot, signIn, unique, uniquePhone } from "./helpers";
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

/** Screenshots to look at: both widths, both languages, before and after a send, with errors. */
const saveShot = (page: Page, name: string) => shot(page, `send-form-${name}`);

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
  // The file shows by the name it was picked with, never its storage path.
  await expect(page.getByTestId("media-file-name")).toHaveText("Archivo subido: promo.png");
  await expect(page.getByTestId("media-file-name")).not.toContainText("uploads/");

  await page.getByLabel("Destino").fill(`+${destination}`);
  await page.getByLabel("Grupo de envío").fill(group);
  await shot(page, "send-filled");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();

  const success = page.getByTestId("send-success");
  await expect(success).toContainText(`Mensaje en cola para +${destination}.`);
  await expect(success).not.toContainText(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  await expect(success.getByRole("link", { name: "Abrir la conversación" })).toHaveAttribute("href", /^\/inbox\?c=\d+$/);

  await page.goto(`/history?wa_number=${DEMO.number}&customer=${destination}`);
  const message = page.locator('article[data-type="template"]').last();
  await expect(message).toHaveAttribute("data-status", "QUEUED");
  await expect(message).toContainText("¡Lucía, esta Navidad tienes 35% de descuento");
  await expect(message.locator('[data-status="QUEUED"][role="img"]')).toHaveAttribute("aria-label", "En cola");
  await expect(message.locator('[data-part="header"] img')).toHaveAttribute("src", /\/api\/v1\/media\/uploads\/team\d+\/.+\.png$/);
  await shot(page, "conversation-after-send");
});

test("names the visible field in each error, in Spanish and in English, never the API path", async ({ page }) => {
  // Nothing filled: the shared zod schema answers in the browser.
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(fieldError(page, "destination")).toHaveText("Destino: obligatorio");
  await expect(page.locator('[data-field-error="template_name"]')).toHaveText("Plantilla: obligatorio");

  await page.getByLabel("Destino").fill("12-34");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(fieldError(page, "destination")).toHaveText("Destino: número no válido, escriba de 8 a 15 dígitos con el código de país");
  await page.getByLabel("Destino").fill(uniquePhone());

  await chooseTemplate(page, "confirmacion_pedido");
  await page.getByLabel("Cuerpo {{1}}").fill("B-77");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(fieldError(page, "body_params.1.value")).toHaveText("Cuerpo {{2}}: obligatorio");
  await expect(fieldError(page, "header_param.value")).toHaveText("Encabezado {{1}}: obligatorio");
  await expect(fieldError(page, "button_params.0.value")).toHaveText("Botón «Seguir pedido» {{1}}: obligatorio");
  await expect(page.locator("form")).not.toContainText(/body_params|header_param|button_params/);
  await saveShot(page, "send-errors-es-1280");

  // The same errors in the English UI, reworded where they stand.
  await page.getByLabel("Idioma").selectOption("en");
  await expect(fieldError(page, "body_params.1.value")).toHaveText("Body {{2}}: required");
  await expect(fieldError(page, "header_param.value")).toHaveText("Header {{1}}: required");
  await expect(fieldError(page, "button_params.0.value")).toHaveText("Button “Seguir pedido” {{1}}: required");
  await saveShot(page, "send-errors-en-1280");
  // The language switch sits in the desktop header: switch there, look at the phone width after.
  await page.setViewportSize({ width: 390, height: 844 });
  await saveShot(page, "send-errors-en-390");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByLabel("Language").selectOption("es");
  await page.setViewportSize({ width: 390, height: 844 });
  await saveShot(page, "send-errors-es-390");
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByLabel("Encabezado {{1}}").fill("Ana");
  await page.getByLabel("Cuerpo {{2}}").fill("martes");
  await page.getByLabel("Botón «Seguir pedido» {{1}}").fill("B-77");
  await expect(page.getByTestId("template-preview")).toContainText("Hola Ana");

  // The server's 422 texts (spec 4.1), placed beside their field and worded for the UI.
  await page.getByLabel("Enviar respuestas a").selectOption("CHATBOT");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(fieldError(page, "bot_id")).toHaveText("Bot: obligatorio cuando las respuestas van a un chatbot");

  await forceOption(page, "bot_id", "999999");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(fieldError(page, "bot_id")).toHaveText("Bot: el bot 999999 no existe");

  await forceOption(page, "response_handler", "WEBHOOK");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(fieldError(page, "response_handler")).toHaveText("Enviar respuestas a: elija Campaña o Chatbot");

  await page.getByLabel("Enviar respuestas a").selectOption("CAMPAIGN");
  await forceOption(page, "campaign_id", "999999");
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/v1/message_templates/send"));
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  // The API keeps the contract's exact Spanish text; the English UI shows it translated.
  expect(await (await answer).json()).toMatchObject({ errors: { campaign_id: ["La campaña con el ID: 999999 no existe!"] } });
  await expect(fieldError(page, "campaign_id")).toHaveText("Campaña: la campaña 999999 no existe");
  await page.getByLabel("Idioma").selectOption("en");
  await expect(fieldError(page, "campaign_id")).toHaveText("Campaign: campaign 999999 does not exist");
  await shot(page, "send-errors");
  await page.getByLabel("Language").selectOption("es");
  await page.getByLabel("Campaña").selectOption("");
});

test("each parameter shows the template's example as placeholder and its text as a hint; a URL button gets its own field", async ({
  page,
}) => {
  await chooseTemplate(page, "confirmacion_pedido");
  await expect(page.getByLabel("Encabezado {{1}}")).toHaveAttribute("placeholder", "María");
  await expect(page.getByLabel("Cuerpo {{1}}")).toHaveAttribute("placeholder", "A-1024");
  await expect(page.getByLabel("Cuerpo {{2}}")).toHaveAttribute("placeholder", "lunes");
  await expect(page.locator('[id="body_params.0.value-hint"]')).toHaveText("En el texto: «Tu pedido {{1}} llega el {{2}}.»");
  await expect(page.getByLabel("Cuerpo {{1}}")).toHaveAttribute("aria-describedby", "body_params.0.value-hint");
  const button = page.getByLabel("Botón «Seguir pedido» {{1}}");
  await expect(button).toHaveAttribute("placeholder", "A-1024");
  await expect(page.locator('[id="button_params.0.value-hint"]')).toHaveText("Enlace: https://tienda.example.com/pedidos/{{1}}");

  const destination = uniquePhone();
  await page.getByLabel("Destino").fill(destination);
  await page.getByLabel("Encabezado {{1}}").fill("Ana");
  await page.getByLabel("Cuerpo {{1}}").fill("B-77");
  await page.getByLabel("Cuerpo {{2}}").fill("martes");
  await button.fill("B-77");
  await expect(page.getByTestId("template-preview").getByRole("link", { name: "Seguir pedido" })).toHaveAttribute(
    "href",
    "https://tienda.example.com/pedidos/B-77",
  );
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(page.getByTestId("send-success")).toBeVisible();

  // The history holds the link as sent, not %7B%7B1%7D%7D.
  const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
  const history = await api(page).get(
    `/api/v1/messages/whatsapp/history?wa_number=${DEMO.number}&customer_source=${destination}&from_date=${day(-1)}&to_date=${day(1)}`,
  );
  const text = JSON.stringify(await history.json());
  expect(text).toContain("https://tienda.example.com/pedidos/B-77");
  expect(text).not.toContain("%7B%7B");

  // In English the hints and the button's label follow.
  await page.getByLabel("Idioma").selectOption("en");
  await expect(page.locator('[id="body_params.0.value-hint"]')).toHaveText("In the text: “Tu pedido {{1}} llega el {{2}}.”");
  await expect(page.getByLabel("Button “Seguir pedido” {{1}}")).toHaveAttribute("placeholder", "A-1024");
  await page.getByLabel("Language").selectOption("es");
});

test("checks an attachment when it is picked, before any upload; a new pick clears the old file and its error", async ({ page }) => {
  const uploads: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/v1/media-upload")) uploads.push(r.url());
  });
  await chooseTemplate(page, "promo_navidad");
  const picker = page.getByLabel("Adjunto");
  await expect(picker).toHaveAttribute("accept", ".jpg,.jpeg,.png,image/jpeg,image/png");

  await picker.setInputFiles({ name: "factura.pdf", mimeType: "application/pdf", buffer: PDF_MIN });
  await expect(fieldError(page, "media_file")).toHaveText("Adjunto: debe ser .jpg, .jpeg, .png para un encabezado IMAGE");
  await picker.setInputFiles({ name: "enorme.png", mimeType: "image/png", buffer: Buffer.alloc(5 * 1024 * 1024 + 1) });
  await expect(fieldError(page, "media_file")).toHaveText("Adjunto: supera el máximo de 5 MB para su tipo");
  expect(uploads).toEqual([]);

  const headerImage = page.getByTestId("template-preview").locator('[data-part="header"] img');
  const defaultSrc = await headerImage.getAttribute("src");
  await picker.setInputFiles({ name: "promo.png", mimeType: "image/png", buffer: PNG_1PX });
  await expect(fieldError(page, "media_file")).toHaveCount(0);
  await expect(page.getByTestId("media-file-name")).toHaveText("Archivo subido: promo.png");
  await expect(headerImage).not.toHaveAttribute("src", defaultSrc!);
  const uploadedSrc = await headerImage.getAttribute("src");
  expect(uploads).toHaveLength(1);
  // A wrong pick after a good one drops the good one too: what is shown is what would be sent.
  await picker.setInputFiles({ name: "otra.pdf", mimeType: "application/pdf", buffer: PDF_MIN });
  await expect(page.getByTestId("media-file-name")).toHaveText("otra.pdf");
  await expect(headerImage).toHaveAttribute("src", defaultSrc!);
  expect(uploadedSrc).not.toBe(defaultSrc);
  expect(uploads).toHaveLength(1);

  // The file input speaks the UI's language and stays reachable from the keyboard.
  await expect(page.getByText("Elegir archivo", { exact: true })).toBeVisible();
  await page.getByLabel("Grupo de envío").focus();
  await page.getByLabel("Adjunto").focus();
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("media_file");
  await page.getByLabel("Idioma").selectOption("en");
  await expect(page.getByText("Choose file", { exact: true })).toBeVisible();
  await page.getByLabel("Language").selectOption("es");
});

test("a video preview never shows an empty player", async ({ page }) => {
  await chooseTemplate(page, "video_bienvenida");
  const preview = page.getByTestId("template-preview");
  await expect(preview.locator('[data-part="header"]')).toBeVisible();
  // Once the probe has answered: a player only with a source that loaded.
  await expect(preview).toHaveAttribute("data-video", /^(playable|unplayable)$/);
  if ((await preview.getAttribute("data-video")) === "playable") {
    await expect(preview.locator("video")).toHaveCount(1);
    await expect.poll(() => preview.locator("video").evaluate((v) => (v as HTMLVideoElement).readyState)).toBeGreaterThanOrEqual(1);
  } else await expect(preview.locator("video")).toHaveCount(0);
  const players = await preview
    .locator("video")
    .evaluateAll((vs) => vs.map((v) => ({ src: (v as HTMLVideoElement).currentSrc, ready: (v as HTMLVideoElement).readyState })));
  for (const p of players) {
    expect(p.src).not.toBe("");
    expect(p.ready).toBeGreaterThanOrEqual(1);
  }
  // An MP4 the browser cannot play (a bare ftyp box): its name, not a black box.
  const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypmp42"), Buffer.from([0, 0, 0, 0]), Buffer.from("mp42isom")]);
  await page.getByLabel("Adjunto").setInputFiles({ name: "roto.mp4", mimeType: "video/mp4", buffer: mp4 });
  await expect(page.getByTestId("media-file-name")).toHaveText("Archivo subido: roto.mp4");
  await expect(preview.locator('[data-part="header"]')).toContainText("roto.mp4");
  await expect(preview.locator("video")).toHaveCount(0);
});

test("the destination is a contact picker that searches by name or number, shows labels, and still takes a typed number", async ({
  page,
}) => {
  const input = page.getByRole("combobox", { name: "Destino" });
  await input.fill("Lucía");
  const option = page.getByRole("option", { name: /Lucía Gómez/ });
  await expect(option).toContainText("+573112223344");
  await expect(option.getByTestId("label-chip").first()).toBeVisible();
  await expect(option).toContainText("Cliente VIP");
  await saveShot(page, "send-contact-picker-es-1280");
  await input.press("ArrowDown");
  await expect(input).toHaveAttribute("aria-activedescendant", /.+/);
  await input.press("Enter");
  await expect(input).toHaveValue("+573112223344");
  await expect(page.locator("#destination-hint")).toHaveText("Contacto: Lucía Gómez");

  await input.fill("57310111");
  await page.getByRole("option", { name: /Carlos Pérez/ }).click();
  await expect(input).toHaveValue("+573101112233");

  // A number that is no contact yet: said so, and sent to as typed.
  const fresh = uniquePhone();
  await input.fill(fresh);
  await expect(page.getByRole("option", { name: "Ningún contacto coincide: se enviará al número escrito." })).toBeVisible();
  await input.press("Escape");
  await chooseTemplate(page, "recordatorio_cita");
  await page.getByLabel("Cuerpo {{1}}").fill("jueves");
  await page.getByLabel("Cuerpo {{2}}").fill("16:00");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(page.getByTestId("send-success")).toContainText(`+${fresh}`);
});

test("after a send the form starts a new send of the same template and names the contact, with a link to the conversation", async ({
  page,
}) => {
  await chooseTemplate(page, "recordatorio_cita");
  const input = page.getByRole("combobox", { name: "Destino" });
  await input.fill("Valentina");
  await page.getByRole("option", { name: /Valentina Torres/ }).click();
  await page.getByLabel("Cuerpo {{1}}").fill("viernes");
  await page.getByLabel("Cuerpo {{2}}").fill("09:30");
  await saveShot(page, "send-before-es-1280");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();

  const success = page.getByTestId("send-success");
  await expect(success).toContainText("Mensaje en cola para Valentina Torres.");
  await expect(page.getByRole("radio", { name: /recordatorio_cita/ })).toBeChecked();
  await expect(page.getByLabel("Cuerpo {{1}}")).toHaveValue("");
  await expect(page.getByLabel("Cuerpo {{2}}")).toHaveValue("");
  await expect(input).toHaveValue("");
  await saveShot(page, "send-after-es-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await saveShot(page, "send-after-es-390");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByLabel("Idioma").selectOption("en");
  await expect(success).toContainText("Message queued for Valentina Torres.");
  await saveShot(page, "send-after-en-1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await saveShot(page, "send-after-en-390");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByLabel("Language").selectOption("es");

  await success.getByRole("link", { name: "Abrir la conversación" }).click();
  await expect(page).toHaveURL(/\/inbox\?c=\d+$/);
  await expect(page.getByTestId("thread-title")).toHaveText("Valentina Torres");
  await expect(page.getByText("Te recordamos tu cita el viernes a las 09:30.").last()).toBeVisible();
});

test("a double click or a retry of the same submit sends once: each attempt carries one Idempotency-Key", async ({ page }) => {
  const keys: string[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/api/v1/message_templates/send")) keys.push(r.headers()["idempotency-key"] ?? "");
  });
  const history = async (destination: string) => {
    const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
    const res = await api(page).get(
      `/api/v1/messages/whatsapp/history?wa_number=${DEMO.number}&customer_source=${destination}&from_date=${day(-1)}&to_date=${day(1)}`,
    );
    return (await res.json()).data as unknown[];
  };
  await chooseTemplate(page, "recordatorio_cita");
  const first = uniquePhone();
  await page.getByLabel("Destino").fill(first);
  await page.getByLabel("Cuerpo {{1}}").fill("lunes");
  await page.getByLabel("Cuerpo {{2}}").fill("08:00");
  await page.getByRole("button", { name: "Enviar", exact: true }).dblclick();
  await expect(page.getByTestId("send-success")).toBeVisible();
  expect(keys.length).toBeGreaterThanOrEqual(1);
  expect(new Set(keys).size).toBe(1);
  expect(keys[0]).toMatch(/^send-[0-9a-f]{32}$/);
  expect(await history(first)).toHaveLength(1);

  // The answer is lost on the way back (the server did queue it); Send again: the same key, no second message.
  const second = uniquePhone();
  keys.length = 0;
  await page.getByLabel("Destino").fill(second);
  await page.getByLabel("Cuerpo {{1}}").fill("martes");
  await page.getByLabel("Cuerpo {{2}}").fill("09:00");
  let dropped = false;
  await page.route("**/api/v1/message_templates/send", async (route) => {
    if (dropped) return route.continue();
    dropped = true;
    await route.fetch();
    await route.abort("connectionreset");
  });
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(page.getByTestId("send-error")).toBeVisible();
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(page.getByTestId("send-success")).toBeVisible();
  expect(keys).toHaveLength(2);
  expect(keys[0]).toBe(keys[1]);
  expect(await history(second)).toHaveLength(1);

  // A new send (new values) gets a new key.
  keys.length = 0;
  await page.unroute("**/api/v1/message_templates/send");
  await page.getByLabel("Destino").fill(uniquePhone());
  await page.getByLabel("Cuerpo {{1}}").fill("miércoles");
  await page.getByLabel("Cuerpo {{2}}").fill("10:00");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(page.getByTestId("send-success")).toBeVisible();
  expect(keys).toHaveLength(1);
});

test("at phone width the preview comes before Send, the template list shows every template, and axe finds nothing serious", async ({
  page,
}) => {
  // Four page loads, each with a full axe scan.
  test.setTimeout(240_000);
  for (const locale of ["es", "en"] as const) {
    await page.evaluate((l) => window.localStorage.setItem("wa_locale", l), locale);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.goto("/send");
      await page.getByRole("radio", { name: /confirmacion_pedido/ }).check();
      const preview = page.getByTestId("template-preview");
      await expect(preview).toContainText("Tu pedido");
      const send = page.getByRole("button", { name: locale === "es" ? "Enviar" : "Send", exact: true });
      // DOM order (what a screen reader and Tab follow) and, on a phone, what the eye meets scrolling down.
      const previewFirst = await page.evaluate(() => {
        const p = document.querySelector('[data-testid="template-preview"]')!;
        const b = document.querySelector('form button[type="submit"]')!;
        return !!(p.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
      });
      expect(previewFirst).toBe(true);
      if (width === 390) expect((await preview.boundingBox())!.y).toBeLessThan((await send.boundingBox())!.y);
      // Every template of the demo is in view inside the list: no hidden overflow.
      const list = page.getByTestId("template-list");
      const fits = await list.evaluate((l) => l.scrollHeight <= l.clientHeight + 1);
      const scrolls = await list.evaluate((l) => getComputedStyle(l).overflowY === "auto");
      expect(fits || scrolls).toBe(true);
      if (!scrolls) expect(fits).toBe(true);
      await expect(page.getByText(locale === "es" ? "5 plantillas" : "5 templates")).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await expectAccessible(page);
      await saveShot(page, `send-before-${locale}-${width}`);
    }
  }
  await page.evaluate(() => window.localStorage.setItem("wa_locale", "es"));
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

  await page.goto(`/history?wa_number=${DEMO.number}&customer=${destination}`);
  await expect(page.locator('article[data-type="template"]')).toContainText("Te recordamos tu cita el jueves a las 16:00.");
  const form = page.getByTestId("sandbox-reply");
  await form.getByLabel("Responder como el cliente (número de prueba)").fill("Sí, ahí estaré");
  await form.getByRole("button", { name: "Simular respuesta" }).click();

  const reply = page.locator('article[data-direction="INBOUND"]').filter({ hasText: "Sí, ahí estaré" });
  await expect(reply).toBeVisible();
  await expect(reply.getByTestId("routed-to")).toHaveText("↳ Enrutado a campaña «Promo Navidad» · respuesta a la última plantilla enviada");
  await shot(page, "conversation-sandbox-reply");
});
