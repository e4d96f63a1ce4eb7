import { expect, test, type Page } from "@playwright/test";
import { api, expectAccessible, shot, signIn, unique, uniquePhone } from "./helpers";
import { DEMO } from "./fixtures";

/** Saved replies, made on their page and used with "/" from the keyboard alone. */
async function customerWrites(page: Page, from: string, text: string, profileName?: string) {
  const res = await api(page).post("/api/v1/sandbox/inbound", {
    wa_number: DEMO.number,
    from,
    type: "text",
    payload: { text },
    ...(profileName ? { profile_name: profileName } : {}),
  });
  expect(res.status(), await res.text()).toBe(200);
}

test("saved replies are created and edited on their page, with the server's errors inline", async ({ page }) => {
  await signIn(page);
  await page.getByRole("link", { name: "Respuestas" }).click();
  await expect(page).toHaveURL(/\/saved-replies$/);
  await expect(page.getByRole("heading", { name: "Respuestas guardadas" })).toBeVisible();
  const shortcut = unique("horario").toLowerCase();
  const form = page.getByTestId("saved-reply-form").first();
  await form.getByLabel("Atajo").fill(shortcut.toUpperCase());
  await form.getByLabel("Título").fill("Horario de atención");
  await form.getByLabel("Texto").fill("Hola {{name}}, abrimos de 8 a 18 h. Le atendió {{agent}}.");
  await form.getByRole("button", { name: "Crear respuesta" }).click();
  await expect(page.getByTestId("saved-reply-row").filter({ hasText: `/${shortcut}` })).toContainText("Horario de atención");
  // By its id: while it is edited, the row shows a form instead of its text.
  const id = await page
    .getByTestId("saved-reply-row")
    .filter({ hasText: `/${shortcut}` })
    .getAttribute("data-saved-reply-id");
  const row = page.locator(`[data-saved-reply-id="${id}"]`);
  await expect(form.getByLabel("Atajo")).toHaveValue("");

  // The same shortcut again: the server's 422 lands on the field.
  await form.getByLabel("Atajo").fill(shortcut);
  await form.getByLabel("Título").fill("Otro");
  await form.getByLabel("Texto").fill("Otro texto");
  await form.getByRole("button", { name: "Crear respuesta" }).click();
  await expect(form.getByText("Ya existe una respuesta guardada con ese atajo.")).toBeVisible();
  await expect(form.getByLabel("Atajo")).toHaveAttribute("aria-invalid", "true");

  await row.getByRole("button", { name: `Editar: /${shortcut}` }).click();
  await row.getByLabel("Título").fill("Horario de diciembre");
  await row.getByRole("button", { name: "Guardar" }).click();
  await expect(row).toContainText("Horario de diciembre");

  await page.setViewportSize({ width: 1440, height: 900 });
  await expectAccessible(page);
  await shot(page, "saved-replies");
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await shot(page, "saved-replies-phone");
});

test("typing / in the composer opens a searchable list; arrows, Enter and Esc; variables filled in", async ({ page }) => {
  await signIn(page);
  const tag = unique("sr")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
  for (const [s, title, content] of [
    [`${tag}saludo`, "Saludo", "Hola {{name}}, le escribe {{agent}}. ¿En qué le ayudo?"],
    [`${tag}numero`, "Confirmar número", "Le llamaremos al {{number}}."],
  ]) {
    const res = await api(page).post("/api/v1/saved-replies", { shortcut: s, title, content });
    expect(res.status(), await res.text()).toBe(201);
  }
  const phone = uniquePhone();
  await customerWrites(page, phone, "Buenas", "Lucía Fernández");
  await page.reload();
  await page.getByTestId("conversation-row").filter({ hasText: "Lucía Fernández" }).first().click();
  const box = page.getByLabel("Escriba un mensaje");
  await box.focus();
  await page.keyboard.type(`/${tag}`);
  const picker = page.getByTestId("saved-reply-picker");
  await expect(picker.getByRole("option")).toHaveCount(2);
  await expect(picker.getByRole("option").first()).toHaveAttribute("aria-selected", "true");
  await expectAccessible(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, "saved-replies-picker");

  // Narrowed as the agent types; arrows move; Esc closes and leaves the text.
  await page.keyboard.type("n");
  await expect(picker.getByRole("option")).toHaveCount(1);
  await page.keyboard.press("Backspace");
  await page.keyboard.press("ArrowDown");
  await expect(picker.getByRole("option").nth(1)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Escape");
  await expect(picker).toHaveCount(0);
  await expect(box).toHaveValue(`/${tag}`);

  // Enter inserts the chosen one in place of "/word", with its variables filled.
  await page.keyboard.type("s");
  await expect(picker.getByRole("option")).toHaveCount(1);
  await page.keyboard.press("Enter");
  await expect(box).toHaveValue(`Hola Lucía Fernández, le escribe ${DEMO.agentName}. ¿En qué le ayudo?`);
  await expect(picker).toHaveCount(0);
  await page.keyboard.press("End");
  await page.keyboard.type(` /${tag}num`);
  await page.keyboard.press("Tab");
  await expect(box).toHaveValue(`Hola Lucía Fernández, le escribe ${DEMO.agentName}. ¿En qué le ayudo? Le llamaremos al ${phone}.`);
  await expect(box).toBeFocused();
  // Enter with the picker closed sends.
  await page.keyboard.press("Enter");
  await expect(page.locator('article[data-direction="OUTBOUND"]').filter({ hasText: `Le llamaremos al ${phone}.` })).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await box.focus();
  await page.keyboard.type("/");
  await expect(picker).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, "saved-replies-picker-phone");
});
