import { expect, test } from "@playwright/test";
import { DEMO } from "./fixtures";
import { api, expectAccessible, signIn, unique, uniquePhone } from "./helpers";

/** /settings/routing: a campaign made in the browser takes the replies to its sends, as the tester says. */
test("an owner creates a campaign with a webhook, sees its secret once, and the tester names it", async ({ page }) => {
  await signIn(page);
  await page.getByRole("link", { name: "Ajustes" }).click();
  await page.getByRole("navigation", { name: "Secciones de ajustes" }).getByRole("link", { name: "Bots y campañas" }).click();
  await expect(page).toHaveURL(/\/settings\/routing$/);
  await expect(page.getByTestId("routing-rules").getByRole("listitem")).toHaveCount(4);

  await page.getByRole("button", { name: "Nueva campaña" }).click();
  const form = page.getByTestId("campaign-form");
  await form.getByRole("button", { name: "Crear campaña" }).click();
  await expect(form.getByRole("alert")).toHaveText("El campo name no puede estar vacío.");
  const name = unique("Promo");
  await form.getByLabel("Nombre").fill(name);
  await form.getByLabel("URL del webhook (opcional)").fill("https://crm.example.com/hook");
  await form.getByRole("button", { name: "Crear campaña" }).click();

  const panel = page.getByTestId("token-secret");
  await expect(panel).toContainText(`Secreto del webhook de «${name}»`);
  expect(await panel.getByLabel("Secreto del webhook").inputValue()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  await panel.getByRole("button", { name: "Listo, ya lo guardé" }).click();
  await expect(panel).toHaveCount(0);
  const row = page.getByTestId("campaign-row").filter({ hasText: name });
  await expect(row).toContainText("con secreto de firma");

  // A template sent with that campaign to a new customer: their reply is the campaign's.
  const campaigns = await (await api(page).get("/api/v1/campaigns?per_page=100")).json();
  const campaign = campaigns.data.find((c: { name: string }) => c.name === name);
  const customer = uniquePhone();
  const sent = await api(page).post("/api/v1/message_templates/send", {
    wa_number: DEMO.number,
    destination: customer,
    template_name: "recordatorio_cita",
    body_params: [
      { key: "1", value: "lunes" },
      { key: "2", value: "9:00" },
    ],
    response_handler: "CAMPAIGN",
    campaign_id: campaign.id,
  });
  expect(sent.status()).toBe(200);

  const tester = page.getByTestId("routing-tester");
  await tester.getByLabel("Número de la empresa").selectOption(DEMO.number);
  await tester.getByLabel("Número del cliente").fill(customer);
  await tester.getByLabel("Texto").fill("Me interesa");
  await tester.getByRole("button", { name: "Probar" }).click();
  await expect(page.getByTestId("routing-answer")).toContainText(`La tomaría la campaña «${name}».`);
  await expect(page.getByTestId("routing-answer")).toContainText("la última plantilla enviada");
  await expectAccessible(page);
});
