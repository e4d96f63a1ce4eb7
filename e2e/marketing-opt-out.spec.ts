import { expect, test, type Page } from "@playwright/test";
import { api, expectAccessible, shot, signIn, uniquePhone } from "./helpers";
import { DEMO } from "./fixtures";

const OPTED_OUT = "El contacto se dio de baja de los mensajes de marketing: no se le pueden enviar plantillas de la categoría MARKETING.";

async function customerWrites(page: Page, from: string, text: string) {
  const res = await api(page).post("/api/v1/sandbox/inbound", { wa_number: DEMO.number, from, type: "text", payload: { text } });
  expect(res.status(), await res.text()).toBe(200);
}

const promo = (destination: string) => ({
  wa_number: DEMO.number,
  template_name: "promo_navidad",
  destination,
  body_params: [
    { key: "1", value: "Lucía" },
    { key: "2", value: "20%" },
  ],
});

test("a customer's SALIR opts them out of marketing: shown on the contact, MARKETING refused, an agent can opt them back in", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page);
  const phone = uniquePhone();
  await customerWrites(page, phone, "Hola, quiero saber de mi pedido");
  await customerWrites(page, phone, "  ¡Salir! ");

  // The single send of a MARKETING template is refused with the exact text; a UTILITY one still goes.
  const refused = await api(page).post("/api/v1/message_templates/send", promo(phone));
  expect(refused.status()).toBe(422);
  expect(await refused.json()).toEqual({ message: OPTED_OUT, errors: { destination: [OPTED_OUT] } });
  const utility = await api(page).post("/api/v1/message_templates/send", {
    wa_number: DEMO.number,
    template_name: "recordatorio_cita",
    destination: phone,
    body_params: [
      { key: "1", value: "viernes" },
      { key: "2", value: "10:00" },
    ],
  });
  expect(utility.status(), await utility.text()).toBe(200);

  // The inbox's contact panel says so, with why.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/inbox");
  await page.getByTestId("conversation-row").filter({ hasText: phone }).click();
  const panel = page.getByTestId("contact-panel");
  const box = panel.getByTestId("marketing-opt-out");
  await expect(box).toHaveAttribute("data-opted-out", "1");
  await expect(box).toContainText("Dado de baja del marketing desde");
  await expect(box).toContainText("escribió una palabra de baja");
  await expectAccessible(page);
  await shot(page, "opt-out-inbox-1440");

  // Opting back in asks first; then an agent opts them out again (reason: agent).
  page.once("dialog", (d) => d.accept());
  await box.getByRole("button", { name: "Volver a enviarle marketing" }).click();
  await expect(box).toHaveAttribute("data-opted-out", "0");
  await expect(box).toContainText("Recibe plantillas de marketing.");
  expect((await api(page).post("/api/v1/message_templates/send", promo(phone))).status()).toBe(200);
  await box.getByRole("button", { name: "Dar de baja del marketing" }).click();
  await expect(box).toHaveAttribute("data-opted-out", "1");
  await expect(box).toContainText("un agente lo dio de baja");

  // The contacts page shows the same, at phone width too, and its CSV export carries it.
  for (const [suffix, size] of [
    ["1440", { width: 1440, height: 900 }],
    ["390", { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.goto("/contacts");
    await page.getByLabel("Buscar").fill(phone);
    const row = page.getByTestId("contact-row").filter({ hasText: phone });
    await expect(row.getByTestId("marketing-opt-out")).toHaveAttribute("data-opted-out", "1");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
    await expectAccessible(page);
    await shot(page, `opt-out-contacts-${suffix}`);
  }
  const csv = await (await api(page).get(`/api/v1/contacts?format=csv&search=${phone}`)).text();
  expect(csv).toMatch(new RegExp(`^${phone},.*,sí,\\d{4}-\\d\\d-\\d\\dT[^,]+,agent$`, "m"));
});
