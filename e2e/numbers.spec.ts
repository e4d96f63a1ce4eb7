import { expect, test } from "@playwright/test";
import { DEMO, LIVE_BASE_URL } from "./fixtures";
import { expectAccessible, expectNoOverflow, shot, signIn, uniquePhone } from "./helpers";

/**
 * The numbers' settings page: add a Meta number from the form (its credentials shown only as
 * saved), verify the demo's sandbox number (which answers for itself: the built app cannot reach
 * a fake Graph API, and tests/api/numbers-settings.test.ts covers Meta's answers), and disable the
 * new number after the confirmation.
 *
 * On the second server: a team with two numbers names the number in the inbox's links and filters,
 * which the specs on the first server do not expect, and a number cannot be removed once added.
 */
test.use({ baseURL: LIVE_BASE_URL });

test("adds a Meta number, verifies the sandbox number and disables the new one", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await page.goto("/settings");
  // /settings opens its first section; the numbers are one click away in its navigation.
  await expect(page).toHaveURL(/\/settings\/agents$/);
  await page.getByRole("navigation", { name: "Secciones de ajustes" }).getByRole("link", { name: "Números" }).click();
  await expect(page).toHaveURL(/\/settings\/numbers$/);
  await expect(page.getByRole("heading", { level: 2, name: "Números de WhatsApp" })).toBeVisible();

  const digits = uniquePhone();
  await page.getByRole("button", { name: "Añadir número", exact: true }).click();
  const form = page.getByTestId("number-create-form");
  await form.getByLabel("Nombre para el panel").fill("Ventas E2E");
  await form.getByLabel("Número de teléfono").fill(`+${digits}`);
  await form.getByLabel("Identificador del número (phone_number_id)").fill(digits.slice(-9) + "01");
  await form.getByLabel("Identificador de la cuenta (waba_id)").fill("102290129340398");
  await form.getByLabel("Token de acceso").fill("EAAG-e2e-token");
  await form.getByLabel("Clave secreta de la app").fill("e2e-app-secret");
  await form.getByRole("button", { name: "Registrar número" }).click();

  const added = page.locator(`[data-testid="number-row"][data-number="${digits}"]`);
  await expect(added).toContainText("Ventas E2E");
  await expect(added).toContainText("Token de acceso: guardado");
  await expect(added).not.toContainText("EAAG-e2e-token");
  await expect(added.getByRole("button", { name: "Copiar: Token de verificación" })).toBeVisible();
  await expect(page.getByText("/api/v1/webhooks/whatsapp")).toBeVisible();

  const sandbox = page.locator(`[data-testid="number-row"][data-number="${DEMO.number}"]`);
  await expect(sandbox).toContainText("Pruebas");
  await sandbox.getByRole("button", { name: "Verificar con Meta: Tienda Demo" }).click();
  await expect(sandbox.getByTestId("number-check")).toHaveText(
    `Número de pruebas: responde el propio servicio (+${DEMO.number}), sin llamar a Meta.`,
  );

  page.once("dialog", (d) => void d.accept());
  await added.getByRole("button", { name: "Desactivar: Ventas E2E" }).click();
  await expect(added).toContainText("Desactivado");
  await expect(added.getByRole("button", { name: "Activar: Ventas E2E" })).toBeVisible();

  await expectAccessible(page);
  await shot(page, "settings-numbers");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoOverflow(page, 390);
  await shot(page, "settings-numbers-phone");
});

test("the team's settings page changes the default country and whether replying assigns", async ({ page }) => {
  await signIn(page);
  await page.goto("/settings/team");
  await expect(page.getByRole("heading", { level: 2, name: "Ajustes del equipo" })).toBeVisible();
  const country = page.getByLabel("País por defecto");
  const assigns = page.getByLabel("Responder asigna la conversación");
  const save = page.getByRole("button", { name: "Guardar" });
  await expect(country).toHaveValue("CO");
  await expect(save).toBeDisabled();
  await country.selectOption("MX");
  await assigns.uncheck();
  await save.click();
  await expect(page.getByRole("status").filter({ hasText: "Ajustes guardados." })).toBeVisible();
  await page.reload();
  await expect(country).toHaveValue("MX");
  await expect(assigns).not.toBeChecked();
  await expectAccessible(page);
  await shot(page, "settings-team");
  // Back as the demo had it: the other specs on this server type numbers without +57.
  await country.selectOption("CO");
  await assigns.check();
  await save.click();
  await expect(page.getByRole("status").filter({ hasText: "Ajustes guardados." })).toBeVisible();
});
