import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";
import { DEMO, LIVE_BASE_URL } from "./fixtures";

/**
 * The template editor (docs/features/template-editor.md) on the server with the delivery worker,
 * whose chores run the sandbox's review (SANDBOX_TEMPLATE_REVIEW_MS is short there:
 * playwright.config.ts): a template with an image header, a named variable and a URL button,
 * its preview as it is typed, submitted, PENDING, then approved, seen live.
 */
test.use({ baseURL: LIVE_BASE_URL });

test("writes a template with an image header, a named variable and a URL button, previews it, submits it and sees it approved", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await page.goto("/templates");
  await page.getByTestId("new-template").click();
  await expect(page).toHaveURL(/\/templates\/new$/);
  await expect(page.getByRole("heading", { name: "Nueva plantilla", level: 1 })).toBeVisible();

  const name = `promo_e2e_${Date.now().toString(36)}`;
  await page.getByLabel("Número").selectOption(DEMO.number);
  await page.getByLabel("Nombre").fill(name);
  await page.getByLabel("Encabezado", { exact: true }).selectOption("IMAGE");
  await page.getByLabel("Archivo de ejemplo").fill("https://example.com/e2e-oferta.png");
  await page.getByLabel("Cuerpo").fill("Hola {{nombre}}, tu pedido está listo.");
  await page.getByLabel("Ejemplo de {{nombre}}").fill("Ana");
  await page.getByTestId("add-button").click();
  await page.getByTestId("button-0-type").selectOption("URL");
  await page.locator("#button-0-text").fill("Ver pedido");
  await page.locator("#button-0-url").fill("https://example.com/p/{{1}}");
  await page.locator("#button-0-example").fill("https://example.com/p/123");

  // The preview: the sample in the body, the image header, the link button.
  const preview = page.getByTestId("template-preview");
  await expect(preview.locator('[data-part="body"]')).toHaveText("Hola Ana, tu pedido está listo.");
  await expect(preview.locator('[data-part="header"][data-format="IMAGE"] img')).toHaveAttribute(
    "src",
    "https://example.com/e2e-oferta.png",
  );
  await expect(preview.locator('[data-part="buttons"]')).toContainText("Ver pedido");

  await page.getByTestId("submit-template").click();
  const submitted = page.getByTestId("template-submitted");
  await expect(submitted).toContainText(`Plantilla ${name} enviada.`);
  // The sandbox's review ends in the worker; template.updated brings the new status to this page.
  await expect(submitted.getByTestId("template-status")).toHaveText("Aprobada");
});
