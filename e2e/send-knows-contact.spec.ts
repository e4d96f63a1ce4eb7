import { expect, test, type Page } from "@playwright/test";
import { api, signIn, uniquePhone } from "./helpers";
import { DEMO } from "./fixtures";

/** The send form knows the contact: opt-out marked and refused, numbers completed, the inbox link. */

const fieldError = (page: Page, id: string) => page.locator(`[id="${id}-error"]`);

async function chooseTemplate(page: Page, name: string) {
  await page.getByTestId("template-search").fill(name);
  await page.getByRole("radio", { name: new RegExp(name) }).check();
}

/** Every send the page posts, to prove a refused one never left the browser. */
function watchSends(page: Page) {
  const sent: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().includes("/api/v1/message_templates/send")) sent.push(r.postData() ?? "");
  });
  return sent;
}

test.beforeEach(async ({ page }) => {
  await signIn(page);
});

test("an opted-out contact is marked in the picker and a MARKETING send to them is refused before submit", async ({ page }) => {
  test.setTimeout(120_000);
  // A contact (a UTILITY send creates it) whom an agent opts out of marketing.
  const phone = uniquePhone();
  const first = await api(page).post("/api/v1/message_templates/send", {
    wa_number: DEMO.number,
    template_name: "recordatorio_cita",
    destination: phone,
    body_params: [
      { key: "1", value: "lunes" },
      { key: "2", value: "10:00" },
    ],
  });
  expect(first.status(), await first.text()).toBe(200);
  const found = await (await api(page).get(`/api/v1/contacts?search=${phone}`)).json();
  const contactId = found.data.find((c: { customer_number: string }) => c.customer_number === phone).id;
  const out = await page.request.patch(`/api/v1/contacts/${contactId}`, {
    headers: { origin: new URL(page.url()).origin, "content-type": "application/json" },
    data: JSON.stringify({ marketing_opt_out: true }),
  });
  expect(out.status(), await out.text()).toBe(200);

  await page.goto("/send");
  const sent = watchSends(page);
  await chooseTemplate(page, "promo_navidad");
  await page.getByLabel("Cuerpo {{1}}").fill("Lucía");
  await page.getByLabel("Cuerpo {{2}}").fill("20%");
  // By id: its accessible name follows the UI's language below.
  const input = page.locator("#destination");
  await input.fill(phone.slice(2));
  const option = page.getByTestId("contact-option").filter({ hasText: `+${phone}` });
  await expect(option.getByTestId("contact-opted-out")).toHaveText("Sin marketing");
  await option.click();

  // Said before any click, with the reason and the way back.
  const notice = page.getByTestId("send-opt-out");
  await expect(notice).toContainText("se dio de baja del marketing: «promo_navidad» es una plantilla MARKETING y no se le enviará.");
  await expect(notice).toContainText("un agente lo dio de baja");
  await expect(notice).toContainText("vuelva a enviarle marketing solo si el cliente lo pidió");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(fieldError(page, "destination")).toHaveText(
    "Destino: el contacto se dio de baja del marketing, no se le pueden enviar plantillas MARKETING",
  );
  expect(sent).toEqual([]);

  // Both languages.
  await page.getByLabel("Idioma").selectOption("en");
  await expect(notice).toContainText("opted out of marketing: “promo_navidad” is a MARKETING template and will not be sent to them.");
  await expect(fieldError(page, "destination")).toHaveText(
    "Destination: the contact opted out of marketing, MARKETING templates cannot be sent to them",
  );
  await input.fill(phone.slice(2));
  await expect(
    page
      .getByTestId("contact-option")
      .filter({ hasText: `+${phone}` })
      .getByTestId("contact-opted-out"),
  ).toHaveText("No marketing");
  await input.press("Escape");
  await page.getByLabel("Language").selectOption("es");

  // A UTILITY template is not concerned: the notice goes.
  await chooseTemplate(page, "recordatorio_cita");
  await expect(notice).toHaveCount(0);
  await chooseTemplate(page, "promo_navidad");
  await expect(notice).toBeVisible();

  // Re-subscribed from the notice (after the confirmation): the send goes.
  page.once("dialog", (d) => d.accept());
  await notice.getByRole("button", { name: "Volver a enviarle marketing" }).click();
  await expect(notice).toHaveCount(0);
  await page.getByLabel("Cuerpo {{1}}").fill("Lucía");
  await page.getByLabel("Cuerpo {{2}}").fill("20%");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(page.getByTestId("send-success")).toBeVisible();
  expect(sent).toHaveLength(1);
});

test("a number typed without its country code is sent with the team's (+57 in the demo), or refused", async ({ page }) => {
  await page.goto("/send");
  const sent = watchSends(page);
  await chooseTemplate(page, "recordatorio_cita");
  await page.getByLabel("Cuerpo {{1}}").fill("martes");
  await page.getByLabel("Cuerpo {{2}}").fill("11:00");
  const input = page.getByRole("combobox", { name: "Destino" });

  // Neither a Colombian number nor one with a country code: refused, nothing sent.
  await input.fill("1234567890");
  await input.press("Escape");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(fieldError(page, "destination")).toHaveText(
    "Destino: no es un número válido de CO (+57) y no lleva código de país; escríbalo con + y el código de país",
  );
  expect(sent).toEqual([]);

  await input.fill("3005551234");
  await input.press("Escape");
  await expect(page.locator("#destination-hint")).toHaveText("Se enviará a +573005551234");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  const success = page.getByTestId("send-success");
  await expect(success).toContainText("Mensaje en cola para +573005551234.");
  expect(sent).toHaveLength(1);
  expect(JSON.parse(sent[0]).destination).toBe("+573005551234");

  // Stored under the completed number, never as typed.
  const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
  const history = await api(page).get(
    `/api/v1/messages/whatsapp/history?wa_number=${DEMO.number}&customer_source=573005551234&from_date=${day(-1)}&to_date=${day(1)}`,
  );
  const rows = (await history.json()).data as { customer_number: string; type: string }[];
  expect(rows.some((r) => r.customer_number === "573005551234" && r.type === "template")).toBe(true);
});

test("“Abrir la conversación” after a send opens that conversation in the inbox", async ({ page }) => {
  const phone = uniquePhone();
  await page.goto("/send");
  await chooseTemplate(page, "recordatorio_cita");
  await page.getByLabel("Cuerpo {{1}}").fill("jueves");
  await page.getByLabel("Cuerpo {{2}}").fill("15:30");
  await page.getByRole("combobox", { name: "Destino" }).fill(`+${phone}`);
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  const success = page.getByTestId("send-success");
  await expect(success).toContainText(`Mensaje en cola para +${phone}.`);
  await success.getByRole("link", { name: "Abrir la conversación" }).click();
  await expect(page).toHaveURL(/\/inbox\?c=\d+$/);
  await expect(page.getByTestId("thread-title")).toHaveText(`+${phone}`);
  await expect(page.getByText("Te recordamos tu cita el jueves a las 15:30.")).toBeVisible();
});
