import { expect, test, type Page } from "@playwright/test";
import { api, signIn, unique } from "./helpers";
import { DEMO } from "./fixtures";

// The dashboard's query cache and its client-side form messages.

/** Sends one template over the API to `destination` (a send creates the contact). */
async function sendTo(page: Page, destination: string, when = "lunes") {
  const res = await api(page).post("/api/v1/message_templates/send", {
    wa_number: DEMO.number,
    destination,
    template_name: "recordatorio_cita",
    body_params: [
      { key: "1", value: when },
      { key: "2", value: "9:00" },
    ],
  });
  expect(res.status()).toBe(200);
}

test("the contacts page shows 20 rows after the customer search (8 per page) looked up the same words", async ({ page }) => {
  await signIn(page);
  // 21 contacts of our own sharing a number prefix nobody else has.
  const prefix = `5731${String(Date.now()).slice(-6)}`;
  for (let i = 0; i < 21; i++) await sendTo(page, `${prefix}${String(i).padStart(2, "0")}`);

  // The conversation viewer's customer search asks for 8 per page …
  await page.getByRole("link", { name: "Historial", exact: true }).click();
  await page.getByTestId("customer-search").fill(prefix);
  await expect(page.getByRole("listbox").getByRole("option")).toHaveCount(8);

  // … and the contacts page, reached without a reload (same query cache), for 20.
  await page.getByRole("link", { name: "Contactos", exact: true }).click();
  // The inbox it leaves has a search box of the same name: type only once the contacts page is in.
  await expect(page).toHaveURL(/\/contacts$/);
  await page.getByLabel("Buscar por nombre o número").fill(prefix);
  await expect(page.getByTestId("contact-row")).toHaveCount(20);
  await expect(page.getByText("Página 1 de 2")).toBeVisible();
});

test("a template sent from the form shows at once in the conversation that was open", async ({ page }) => {
  await signIn(page);
  await page.goto(`/history?wa_number=${DEMO.number}&customer=${DEMO.maria}`);
  await expect(page.getByTestId("current-customer")).toBeVisible();
  await expect(page.locator("article").first()).toBeVisible();

  const when = unique("jueves");
  await page.getByRole("link", { name: "Enviar plantilla" }).click();
  await page.getByTestId("template-search").fill("recordatorio_cita");
  await page.getByRole("radio", { name: /recordatorio_cita/ }).check();
  await page.getByLabel("Cuerpo {{1}}").fill(when);
  await page.getByLabel("Cuerpo {{2}}").fill("10:00");
  await page.getByLabel("Destino").fill(DEMO.maria);
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(page.getByTestId("send-success")).toBeVisible();

  // Back to the same conversation (same history query, seconds old): the send is there at once
  // (a send invalidates every history; the viewer itself does not poll). The browser's back
  // button, a client-side navigation like the nav's links ("Abrir la conversación" now opens the
  // inbox: e2e/send-knows-contact.spec.ts).
  await page.goBack();
  await expect(page).toHaveURL(/\/history\?/);
  await expect(page.getByTestId("current-customer")).toBeVisible();
  await expect(
    page.locator('article[data-type="template"]').filter({ hasText: `Te recordamos tu cita el ${when} a las 10:00.` }),
  ).toBeVisible({
    timeout: 5_000,
  });
});

test("in English, the sign-in form's own checks speak English", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Idioma").selectOption("en");
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.locator('[id="email-error"]')).toHaveText("Email is required.");
  await expect(page.locator('[id="password-error"]')).toHaveText("Password is required.");
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");

  // Spanish keeps the contract's own wording, as the server words it.
  await page.getByLabel("Language").selectOption("es");
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page.locator('[id="email-error"]')).toHaveText("El campo email es obligatorio.");

  // Filled in, the form signs in as before.
  await page.getByLabel("Correo electrónico").fill(DEMO.email);
  await page.getByLabel("Contraseña").fill(DEMO.password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/inbox$/);
});

test("in English, the label form's own checks speak English", async ({ page }) => {
  await signIn(page);
  await page.getByLabel("Idioma").selectOption("en");
  await page.getByRole("link", { name: "Labels", exact: true }).click();
  await page.getByRole("button", { name: "Create label" }).click();
  await expect(page.locator('[id="new-title-error"]')).toHaveText("Title is required.");

  await page.getByLabel("Title").first().fill("x".repeat(101));
  await page.getByLabel("Description").first().fill("y".repeat(501));
  await page.getByRole("button", { name: "Create label" }).click();
  await expect(page.locator('[id="new-title-error"]')).toHaveText("Title can be at most 100 characters long.");
  await expect(page.locator('[id="new-description-error"]')).toHaveText("Description can be at most 500 characters long.");

  // A valid label is created and the form empties.
  const title = unique("English");
  await page.getByLabel("Title").first().fill(title);
  await page.getByLabel("Description").first().fill("");
  await page.getByRole("button", { name: "Create label" }).click();
  await expect(page.getByTestId("label-row").filter({ hasText: title })).toBeVisible();
  await expect(page.locator('[id="new-title-error"]')).toHaveCount(0);
  await expect(page.getByLabel("Title").first()).toHaveValue("");
});
