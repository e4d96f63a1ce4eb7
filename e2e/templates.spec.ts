import { expect, test } from "@playwright/test";
import { expectAccessible, expectNoOverflow, shot, signIn } from "./helpers";
import { PLAIN_AGENT, REJECTED_TEMPLATE } from "./fixtures";

/**
 * The templates page (docs/features/templates-and-number-health.md): the demo team's templates
 * with their status chips, one opened with its preview and history, and no sync for an agent. The
 * e2e server has no Graph: sync is never clicked here (tests/api/templates-sync.test.ts syncs).
 */
test("the templates page lists the templates by status, opens one with its preview and history, and offers sync only to admins", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page);
  await page.getByRole("link", { name: "Plantillas" }).click();
  await expect(page).toHaveURL(/\/templates$/);
  await expect(page.getByRole("heading", { name: "Plantillas", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Sandbox y plantillas de todo el equipo" })).toBeVisible();
  const rows = page.getByTestId("template-row");
  const row = (name: string) => rows.filter({ has: page.locator(`[data-template="${name}"]`) });
  await expect(row("confirmacion_pedido").getByTestId("template-status")).toHaveText("Aprobada");
  const rejected = row(REJECTED_TEMPLATE.name);
  await expect(rejected.getByTestId("template-status")).toHaveText("Rechazada");
  await expect(rejected).toContainText(`Motivo de Meta: ${REJECTED_TEMPLATE.reason}`);
  await expect(page.getByTestId("sync-templates")).toHaveText("Sincronizar ahora");

  // Filtered by status, then opened: the WhatsApp preview and what Meta changed, newest first.
  await page.getByLabel("Estado").selectOption("REJECTED");
  await expect(rows).toHaveCount(1);
  await rejected.getByRole("button", { name: `Ver ${REJECTED_TEMPLATE.name}` }).click();
  const detail = page.getByTestId("template-detail");
  await expect(detail.getByTestId("template-preview")).toContainText("¡María, llévate 2x1 en toda la tienda!");
  const history = detail.getByTestId("template-change");
  await expect(history).toHaveText([
    /Estado: PENDING → REJECTED.*INVALID_FORMAT.*Aviso de Meta/,
    /Creada con estado PENDING.*Sincronización/,
  ]);
  await expectAccessible(page);
  await shot(page, "templates");

  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoOverflow(page, 390);
  await shot(page, "templates-detail-phone");
  await detail.getByRole("button", { name: "Volver a la lista" }).click();
  // Back on the card it was opened from.
  await expect(page.getByRole("button", { name: `Ver ${REJECTED_TEMPLATE.name}` })).toBeFocused();
  await page.getByLabel("Estado").selectOption("");
  await expect(page.getByTestId("template-card")).toHaveCount(6);
  await expectNoOverflow(page, 390);
  await shot(page, "templates-phone");

  // An agent reads the same page, without the sync.
  const signedIn = await page.request.post("/api/v1/auth/login", {
    headers: { "content-type": "application/json" },
    data: JSON.stringify({ email: PLAIN_AGENT.email, password: PLAIN_AGENT.password }),
  });
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/templates");
  await expect(page.getByTestId("agent-name")).toHaveText(PLAIN_AGENT.name);
  await expect(row("recordatorio_cita")).toBeVisible();
  await expect(page.getByTestId("sync-templates")).toHaveCount(0);
});
