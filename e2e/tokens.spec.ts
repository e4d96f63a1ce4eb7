import { expect, test } from "@playwright/test";
import { DEMO } from "./fixtures";
import { expectAccessible, expectNoOverflow, shot, signIn, unique } from "./helpers";

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** /settings/tokens: a token made in the browser works with its scope at once, and stops when revoked there. */
test("an owner creates a history token, copies its secret, calls the API with it, then revokes it", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await page.getByRole("link", { name: "Ajustes" }).click();
  await page.getByRole("navigation", { name: "Secciones de ajustes" }).getByRole("link", { name: "Tokens de API" }).click();
  await expect(page).toHaveURL(/\/settings\/tokens$/);
  await expect(page.getByRole("heading", { level: 2, name: "Tokens de API" })).toBeVisible();

  await page.getByRole("button", { name: "Crear token" }).click();
  const name = unique("Integración");
  await page.getByLabel("Nombre").fill(name);
  await page.getByRole("checkbox", { name: /^history/ }).check();
  await shot(page, "tokens-form");
  await page.getByTestId("token-form").getByRole("button", { name: "Crear token" }).click();

  const panel = page.getByTestId("token-secret");
  await expect(panel).toContainText("no se volverá a mostrar");
  await panel.getByRole("button", { name: "Copiar" }).click();
  await expect(panel.getByRole("status")).toHaveText("Copiado");
  const secret = await page.evaluate(() => navigator.clipboard.readText());
  expect(secret).toMatch(/^wam_/);
  expect(await panel.getByLabel("Token secreto").inputValue()).toBe(secret);
  const row = page.getByTestId("token-row").filter({ hasText: name });
  await expect(row).toContainText(secret.slice(0, 8));
  await expect(row.getByTestId("token-state")).toHaveText("Activo");
  await expectAccessible(page);
  await shot(page, "tokens");

  // The bearer header wins over the page's cookie: this is the token's own answer.
  const history = `/api/v1/messages/whatsapp/history?wa_number=${DEMO.number}&customer_source=${DEMO.maria}&from_date=${day(-1)}&to_date=${day(1)}`;
  const bearer = { authorization: `Bearer ${secret}` };
  expect((await page.request.get(history, { headers: bearer })).status()).toBe(200);
  expect((await page.request.get("/api/v1/contacts", { headers: bearer })).status()).toBe(403);

  await panel.getByRole("button", { name: "Listo, ya lo guardé" }).click();
  await expect(panel).toHaveCount(0);
  page.once("dialog", (d) => d.accept());
  await row.getByRole("button", { name: `Revocar: ${name}` }).click();
  await expect(row.getByTestId("token-state")).toHaveText("Revocado");
  const refused = await page.request.get(history, { headers: bearer });
  expect(refused.status()).toBe(401);

  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoOverflow(page, 390);
  await shot(page, "tokens-phone");
});
