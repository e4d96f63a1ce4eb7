import { expect, test } from "@playwright/test";
import { api, shot, signIn, unique, uniquePhone } from "./helpers";
import { DEMO } from "./fixtures";

test("adds labels up to the cap of 5, the sixth is refused, and one is removed with a click", async ({ page }) => {
  await signIn(page);
  const client = api(page);
  // Our own contact (a send creates it) and six labels of our own: the test never relies on pristine data.
  const phone = uniquePhone();
  const send = await client.post("/api/v1/message_templates/send", {
    wa_number: DEMO.number,
    destination: phone,
    template_name: "recordatorio_cita",
    body_params: [
      { key: "1", value: "lunes" },
      { key: "2", value: "9:00" },
    ],
    sent_group: unique("e2e-labels"),
  });
  expect(send.status()).toBe(200);
  const tag = unique("L");
  const titles = Array.from({ length: 6 }, (_, i) => `${tag} ${i + 1}`);
  const labelIds: number[] = [];
  for (const [i, title] of titles.entries()) {
    const res = await client.post("/api/v1/contacts/labels", {
      title,
      bg_color: i % 2 ? "#1d4ed8" : "#fde68a",
      text_color: i % 2 ? "#ffffff" : "#1f2937",
    });
    expect(res.status()).toBe(201);
    labelIds.push((await res.json()).data.id);
  }

  await page.getByRole("link", { name: "Contactos" }).click();
  // The inbox it leaves has a search box of the same name: type only once the contacts page is in.
  await expect(page).toHaveURL(/\/contacts$/);
  await page.getByLabel("Buscar por nombre o número").fill(phone);
  const row = page.getByTestId("contact-row").filter({ hasText: phone });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Sin etiquetas");

  const openPicker = row.getByRole("button", { name: "+ Añadir etiqueta" });
  for (const title of titles.slice(0, 5)) {
    if ((await openPicker.getAttribute("aria-expanded")) !== "true") await openPicker.click();
    await row.getByRole("button", { name: `Añadir etiqueta: ${title}` }).click();
    await expect(row.getByTestId("contact-labels").getByTestId("label-chip").filter({ hasText: title })).toBeVisible();
    await expect(row.getByTestId("label-answer")).not.toBeEmpty();
  }
  await expect(row.getByTestId("contact-labels").getByTestId("label-chip")).toHaveCount(5);

  // The picker stops offering labels and says why.
  if ((await openPicker.getAttribute("aria-expanded")) !== "true") await openPicker.click();
  await expect(row.getByTestId("label-cap")).toHaveText(
    "Este contacto ya tiene 5 etiquetas, el máximo permitido. Quite una para añadir otra.",
  );
  await expect(row.getByRole("button", { name: `Añadir etiqueta: ${titles[5]}` })).toHaveCount(0);
  await shot(page, "contacts-cap");

  // And the server refuses a sixth with the contract's message.
  const contactId = Number(await row.getAttribute("data-contact-id"));
  const sixth = await client.post(`/api/v1/contacts/${contactId}/labels`, { label_ids: [labelIds[5]] });
  expect(sixth.status()).toBe(422);
  expect((await sixth.json()).message).toBe("El contacto no puede tener más de 5 etiquetas.");

  // One click removes a label; the server's answer stays after a reload.
  await row.getByRole("button", { name: `Quitar la etiqueta ${titles[2]}` }).click();
  await expect(row.getByTestId("contact-labels").getByTestId("label-chip")).toHaveCount(4);
  await expect(row.getByTestId("label-answer")).not.toBeEmpty();
  await page.reload();
  await page.getByLabel("Buscar por nombre o número").fill(phone);
  const again = page.getByTestId("contact-row").filter({ hasText: phone });
  await expect(again.getByTestId("contact-labels").getByTestId("label-chip")).toHaveCount(4);
  await expect(again.getByTestId("contact-labels").getByTestId("label-chip").filter({ hasText: titles[2] })).toHaveCount(0);
});

test("an add the server refuses rolls the optimistic chip back and shows the server's message", async ({ page }) => {
  await signIn(page);
  const client = api(page);
  const phone = uniquePhone();
  await client.post("/api/v1/message_templates/send", {
    wa_number: DEMO.number,
    destination: phone,
    template_name: "recordatorio_cita",
    body_params: [
      { key: "1", value: "lunes" },
      { key: "2", value: "9:00" },
    ],
  });
  const title = unique("Efímera");
  const created = await (await client.post("/api/v1/contacts/labels", { title, bg_color: "#fde68a", text_color: "#1f2937" })).json();
  await page.goto("/contacts");
  await page.getByLabel("Buscar por nombre o número").fill(phone);
  const row = page.getByTestId("contact-row").filter({ hasText: phone });
  await row.getByRole("button", { name: "+ Añadir etiqueta" }).click();
  await expect(row.getByRole("button", { name: `Añadir etiqueta: ${title}` })).toBeVisible();
  // The label disappears behind the page's back (another agent deleted it).
  await page.request.delete(`/api/v1/contacts/labels/${created.data.id}`, { headers: { origin: new URL(page.url()).origin } });
  await row.getByRole("button", { name: `Añadir etiqueta: ${title}` }).click();
  await expect(row.getByTestId("label-answer")).toHaveText("Etiqueta no encontrada.");
  await expect(row.getByTestId("contact-labels").getByTestId("label-chip").filter({ hasText: title })).toHaveCount(0);
});

test("label management: create, rename, recolour and delete", async ({ page }) => {
  await signIn(page);
  await page.getByRole("link", { name: "Etiquetas" }).click();
  const title = unique("Gestión");
  await page.getByLabel("Título").first().fill(title);
  await page.getByLabel("Descripción").first().fill("Creada por la prueba");
  await page.getByRole("button", { name: "Crear etiqueta" }).click();
  const row = page.getByTestId("label-row").filter({ hasText: title });
  await expect(row).toBeVisible();
  await shot(page, "labels");

  await row.getByRole("button", { name: `Editar: ${title}` }).click();
  await row.getByLabel("Título").fill(`${title} renombrada`);
  await row.getByLabel("Color de fondo").fill("#123456");
  await row.getByRole("button", { name: "Guardar" }).click();
  const renamed = page.getByTestId("label-row").filter({ hasText: `${title} renombrada` });
  await expect(renamed.getByTestId("label-chip")).toHaveCSS("background-color", "rgb(18, 52, 86)");

  page.once("dialog", (d) => d.accept());
  await renamed.getByRole("button", { name: `Eliminar: ${title} renombrada` }).click();
  await expect(page.getByTestId("label-row").filter({ hasText: title })).toHaveCount(0);
});
