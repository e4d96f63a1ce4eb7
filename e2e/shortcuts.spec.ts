import { expect, test, type Page } from "@playwright/test";
import { api, expectAccessible, shot, signIn, uniquePhone } from "./helpers";
import { DEMO } from "./fixtures";

/** The inbox from the keyboard. */
async function customerWrites(page: Page, from: string, text: string) {
  const res = await api(page).post("/api/v1/sandbox/inbound", { wa_number: DEMO.number, from, type: "text", payload: { text } });
  expect(res.status(), await res.text()).toBe(200);
}

const selected = (page: Page) => page.locator('[data-testid="conversation-row"][aria-current="true"]');

test("j/k move through the list, r/n/a/e/l act on the open conversation, ? lists them; nothing fires while typing", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  const phone = uniquePhone();
  await customerWrites(page, phone, "Necesito ayuda con mi pedido");
  await page.reload();
  await expect(page.getByTestId("conversation-row").first()).toContainText(phone);
  const rows = page.getByTestId("conversation-row");

  await page.keyboard.press("j");
  await expect(selected(page)).toContainText(phone);
  await expect(page).toHaveURL(/[?&]c=\d+/);
  const second = await rows.nth(1).getAttribute("data-conversation-id");
  await page.keyboard.press("j");
  await expect(selected(page)).toHaveAttribute("data-conversation-id", second!);
  await page.keyboard.press("k");
  await expect(selected(page)).toContainText(phone);

  // r: the reply box, where keys are text, not shortcuts; Esc leaves it.
  await page.keyboard.press("r");
  const reply = page.getByLabel("Escriba un mensaje");
  await expect(reply).toBeFocused();
  await page.keyboard.type("jake");
  await expect(reply).toHaveValue("jake");
  await expect(selected(page)).toContainText(phone);
  await page.keyboard.press("Escape");
  await expect(reply).not.toBeFocused();

  await page.keyboard.press("n");
  await expect(page.getByLabel(/Nota privada: solo la ven los agentes/)).toBeFocused();
  await page.keyboard.press("Escape");
  // Moving on and back does not put the focus in a box by itself: j/k keep working.
  await page.keyboard.press("j");
  await expect(selected(page)).toHaveAttribute("data-conversation-id", second!);
  await page.keyboard.press("k");
  await expect(selected(page)).toContainText(phone);

  await page.keyboard.press("a");
  await expect(page.getByTestId("assignee")).toHaveText("Asignada a mí");
  await page.keyboard.press("e");
  await expect(page.getByTestId("resolve")).toHaveText("Reabrir");
  await page.keyboard.press("e");
  await expect(page.getByTestId("resolve")).toHaveText("Resolver");

  await page.keyboard.press("l");
  await expect(page.getByTestId("label-picker")).toBeVisible();
  await page.keyboard.press("Escape");
  await page.locator("body").click({ position: { x: 5, y: 5 } });

  await page.keyboard.press("?");
  const dialog = page.getByRole("dialog", { name: "Atajos de teclado" });
  await expect(dialog).toBeVisible();
  for (const text of [
    "Conversación siguiente",
    "Conversación anterior",
    "Escribir la respuesta",
    "Escribir una nota privada",
    "Asignármela",
    "Resolver o reabrir",
    "Añadir una etiqueta al contacto",
  ])
    await expect(dialog).toContainText(text);
  // Keys inside the dialog are not shortcuts.
  await page.keyboard.press("j");
  await expect(selected(page)).toContainText(phone);
  await expectAccessible(page);
  await shot(page, "shortcuts-dialog");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId("shortcuts-button").click();
  await expect(dialog).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessible(page);
  await shot(page, "shortcuts-dialog-phone");
  await dialog.getByRole("button", { name: "Cerrar" }).click();
  await expect(dialog).toBeHidden();
});

test("the reply box and the label editor are a few Tab presses from the top of the page", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await page.getByTestId("conversation-row").filter({ hasText: "María" }).first().click();
  await expect(page.getByTestId("composer")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("composer")).toBeVisible();

  const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
  let presses = 0;
  const tab = async () => {
    await page.keyboard.press("Tab");
    presses++;
  };
  await tab();
  expect(await focused()).toBe("Saltar al contenido");
  await page.keyboard.press("Enter");
  await tab();
  expect(await focused()).toBe("Ir a la respuesta");
  await expect(page.getByRole("link", { name: "Ir a la respuesta" })).toBeInViewport();
  await shot(page, "skip-links");
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Escriba un mensaje")).toBeFocused();
  expect(presses).toBe(2);

  // Without the #main the first skip link left in the address, which would move the start of Tab.
  await page.goto(page.url().split("#")[0]);
  await expect(page.getByTestId("composer")).toBeVisible();
  presses = 0;
  await tab();
  await page.keyboard.press("Enter");
  await tab();
  await tab();
  expect(await focused()).toBe("Ir a las etiquetas del contacto");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("label-picker-trigger")).toBeFocused();
  expect(presses).toBe(3);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("label-picker")).toBeVisible();
});
