import { expect, test } from "@playwright/test";
import { expectAccessible, expectNoOverflow, shot, signIn, unique } from "./helpers";
import { BASE_URL } from "./fixtures";

/**
 * docs/features/agents.md: the owner invites an agent from /settings/agents, copies the one-time
 * link, and the invited person opens it in another browser, chooses a name and a password and
 * lands in the inbox signed in; with the `agent` role there is no Settings link, and
 * /settings/agents says the role may not.
 */
test("an invitation link, copied and opened elsewhere, signs the new agent in; an agent has no settings", async ({ page, browser }) => {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: BASE_URL });
  await signIn(page);
  await page.getByRole("link", { name: "Ajustes" }).click();
  await expect(page).toHaveURL(/\/settings\/agents$/);
  await expect(page.getByRole("heading", { level: 2, name: "Agentes del equipo" })).toBeVisible();
  await expect(page.getByTestId("agent-row").first()).toBeVisible();

  const email = `${unique("invitada")}@example.com`;
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Rol", { exact: true }).selectOption("agent");
  await page.getByRole("button", { name: "Crear enlace de invitación" }).click();
  const created = page.getByTestId("invitation-link");
  await expect(created).toContainText("No se envió ningún correo");
  await page.getByRole("button", { name: "Copiar enlace" }).click();
  await expect(page.getByRole("button", { name: "Enlace copiado" })).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toBe(await page.getByLabel(/^Enlace de invitación para/).inputValue());
  expect(link).toMatch(new RegExp(`^${BASE_URL}/invite/[\\w-]{43}$`));
  await expect(page.getByTestId("invitation-row").filter({ hasText: email })).toContainText("Invitó Ana Agente");
  await page.setViewportSize({ width: 1440, height: 900 });
  await expectAccessible(page);
  await shot(page, "settings-agents");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoOverflow(page, 390);
  await shot(page, "settings-agents-phone");

  const fresh = await browser.newContext({ baseURL: BASE_URL, locale: "es-CO", timezoneId: "UTC", viewport: { width: 390, height: 844 } });
  const invited = await fresh.newPage();
  await invited.goto(link);
  await expect(invited.getByRole("heading", { name: /^Unirse a / })).toBeVisible();
  await expect(invited.getByLabel("Correo electrónico")).toHaveValue(email);
  await invited.getByLabel("Su nombre").fill("Irene Invitada");
  await invited.getByLabel("Contraseña").fill("clave-de-irene");
  await expectNoOverflow(invited, 390);
  await shot(invited, "invite-accept-phone");
  await invited.getByRole("button", { name: "Crear mi cuenta y entrar" }).click();
  await expect(invited).toHaveURL(/\/inbox$/);
  await expect(invited.getByTestId("agent-name")).toHaveText("Irene Invitada");

  // The `agent` role: no Settings link (the frame knows the role once the name shows), hidden
  // menu included, and the page itself refuses.
  await expect(invited.getByRole("link", { name: "Ajustes", includeHidden: true })).toHaveCount(0);
  await invited.goto("/settings/agents");
  await expect(invited.getByRole("alert").filter({ hasText: "Tu rol no permite esta acción." })).toBeVisible();
  await fresh.close();
});
