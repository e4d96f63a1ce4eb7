import { expect, test } from "@playwright/test";
import { shot, signIn } from "./helpers";
import { DEMO } from "./fixtures";

test("a signed-out visitor is sent to the sign-in page, which shows the demo hint", async ({ page }) => {
  await page.goto("/history");
  await expect(page).toHaveURL(/\/login\?next=/);
  await expect(page.getByTestId("demo-hint")).toContainText(DEMO.email);
  await expect(page.getByTestId("demo-hint")).toContainText(DEMO.password);
  await shot(page, "login");
  await page.setViewportSize({ width: 390, height: 800 });
  await shot(page, "login-phone");
});

test("wrong credentials show the server's message; the demo agent signs in and out", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Correo electrónico").fill(DEMO.email);
  await page.getByLabel("Contraseña").fill("incorrecta");
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page.getByText("El correo o la contraseña no son correctos.")).toBeVisible();

  await page.getByLabel("Contraseña").fill(DEMO.password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/inbox$/);
  await expect(page.getByTestId("agent-name")).toHaveText(DEMO.agentName);
  const cookies = await page.context().cookies();
  const session = cookies.find((c) => c.name === "wa_session");
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe("Lax");

  await page.getByRole("button", { name: "Cerrar sesión" }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/send");
  await expect(page).toHaveURL(/\/login/);
});

test("the interface switches to English and remembers it, tab titles too", async ({ page }) => {
  await signIn(page);
  await page.getByLabel("Idioma").selectOption("en");
  await expect(page.getByRole("link", { name: "History" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Inbox" })).toBeAttached();
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  // The inbox's title leads with the unread count, when there is one (the specs before this one wrote).
  await expect(page).toHaveTitle(/^(\(\d+\) )?Inbox · WA Messaging$/);
  // Every page's tab title follows, though the server wrote it in Spanish.
  await page.getByRole("link", { name: "Contacts" }).click();
  await expect(page).toHaveTitle("Contacts · WA Messaging");
  await page.goto("/reports");
  await expect(page).toHaveTitle("Reports · WA Messaging");
  await page.getByLabel("Language").selectOption("es");
  await expect(page).toHaveTitle("Informes · WA Mensajería");
  await page.goto("/inbox");
  await expect(page.getByRole("heading", { name: "Bandeja de entrada" })).toBeAttached();
});

test("sign-in and navigation work from the keyboard alone", async ({ page }) => {
  await page.goto("/login");
  // The language switch comes first, then the labelled fields.
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Correo electrónico")).toBeFocused();
  await page.keyboard.type(DEMO.email);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Contraseña")).toBeFocused();
  await page.keyboard.type(DEMO.password);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/inbox$/);
  await expect(page.getByTestId("agent-name")).toHaveText(DEMO.agentName);
  // Skip link first, then the navigation.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Saltar al contenido" })).toBeFocused();
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press("Tab");
    if (await page.getByRole("link", { name: "Historial", exact: true }).evaluate((el) => el === document.activeElement)) break;
  }
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/history/);
  await expect(page.getByRole("heading", { name: "Historial" })).toBeVisible();
});
