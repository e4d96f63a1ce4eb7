import { expect, test } from "@playwright/test";
import { api, expectAccessible, expectNoOverflow, shot, signIn, unique } from "./helpers";

/** The audit page: what the team changed and who signed in, filtered, and exported as CSV. */
test("the audit page lists the sign-in and a label's change with its fields, filters them and exports CSV", async ({ page }) => {
  await signIn(page);
  const title = unique("Auditada");
  const created = await api(page).post("/api/v1/contacts/labels", { title, bg_color: "#0a7d5a", text_color: "#ffffff" });
  expect(created.status(), await created.text()).toBe(201);
  const { data } = await created.json();
  const changed = await api(page).patch(`/api/v1/contacts/labels/${data.id}`, { title: `${title} 2` });
  expect(changed.status(), await changed.text()).toBe(200);

  await page.getByRole("link", { name: "Auditoría" }).click();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(page.getByRole("heading", { name: "Registro de auditoría" })).toBeVisible();
  const rows = page.getByTestId("audit-row");
  const change = rows.filter({ hasText: "Etiqueta cambiada" }).filter({ hasText: `${title} 2` });
  await expect(change).toContainText(`${title} → ${title} 2`);
  await expect(rows.filter({ hasText: "Inicio de sesión" }).first()).toBeVisible();

  await page.getByLabel("Acción").selectOption("label.updated");
  await expect(rows.filter({ hasText: "Inicio de sesión" })).toHaveCount(0);
  await expect(change).toBeVisible();
  await expectAccessible(page);
  await shot(page, "audit");

  // The link exports what is filtered.
  const href = await page.getByRole("link", { name: "Exportar CSV" }).getAttribute("href");
  expect(href).toContain("action=label.updated");
  expect(href).toContain("format=csv");
  const csv = await page.request.get(href!);
  expect(csv.status()).toBe(200);
  expect(await csv.text()).toContain(`${title} 2`);

  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoOverflow(page, 390);
  await shot(page, "audit-phone");
});
