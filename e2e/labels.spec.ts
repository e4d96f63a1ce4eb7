import { expect, test } from "@playwright/test";
import { api, expectAccessible, shot, signIn, unique, uniquePhone } from "./helpers";
import { DEMO } from "./fixtures";
import type { Page } from "@playwright/test";

/** Where the keyboard focus is: the element's test id, aria-label and the contact card it sits in. */
async function activeElement(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    return {
      testId: el?.getAttribute("data-testid") ?? el?.tagName.toLowerCase(),
      ariaLabel: el?.getAttribute("aria-label") ?? null,
      contactId: el?.closest("[data-contact-id]")?.getAttribute("data-contact-id") ?? null,
    };
  });
}

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

  await page.getByRole("link", { name: "Contactos", exact: true }).click();
  // The inbox it leaves has a search box of the same name: type only once the contacts page is in.
  await expect(page).toHaveURL(/\/contacts$/);
  await page.getByLabel("Buscar por nombre o número").fill(phone);
  const row = page.getByTestId("contact-row").filter({ hasText: phone });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Sin etiquetas");
  const chips = row.getByTestId("contact-labels").getByTestId("label-chip");
  const status = row.getByTestId("label-answer");
  // One status line per contact: outcomes, the undo and the cap warning all speak there.
  await expect(row.getByRole("status")).toHaveCount(1);

  const openPicker = row.getByRole("button", { name: "+ Añadir etiqueta" });
  // The first one from the keyboard alone: Enter opens the picker on its first label, Escape
  // closes it back onto the button, Enter adds, and the focus comes back to the button.
  await openPicker.focus();
  await page.keyboard.press("Enter");
  await expect(row.getByTestId("label-picker")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(row.getByTestId("label-picker")).toHaveCount(0);
  await expect(openPicker).toBeFocused();
  for (const title of titles.slice(0, 5)) {
    await openPicker.click();
    await row.getByRole("button", { name: `Añadir etiqueta: ${title}` }).focus();
    await page.keyboard.press("Enter");
    await expect(chips.filter({ hasText: title })).toBeVisible();
    // Focus is back on the picker's button of this contact, not dropped to <body>.
    expect(await activeElement(page)).toMatchObject({
      testId: "label-picker-trigger",
      contactId: await row.getAttribute("data-contact-id"),
    });
    if (title !== titles[4]) await expect(status).toHaveText(`Etiqueta «${title}» añadida.`);
  }
  await expect(chips).toHaveCount(5);

  // At the cap, the warning takes the success line's place (nothing stacked under it), and the
  // button says so instead of opening a picker with nothing to offer.
  const capText = "Este contacto ya tiene 5 etiquetas, el máximo permitido. Quite una para añadir otra.";
  await expect(status).toHaveText(capText);
  await expect(row.getByTestId("label-cap")).toHaveCount(1);
  // (aria-disabled, still focusable and pressable: it is where the focus came back to)
  await expect(openPicker).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(row.getByTestId("label-picker")).toHaveCount(0);
  await expect(status).toHaveText(capText);
  await expect(row.getByRole("button", { name: `Añadir etiqueta: ${titles[5]}` })).toHaveCount(0);
  await shot(page, "contacts-cap");

  // And the server refuses a sixth with the contract's message.
  const contactId = Number(await row.getAttribute("data-contact-id"));
  const sixth = await client.post(`/api/v1/contacts/${contactId}/labels`, { label_ids: [labelIds[5]] });
  expect(sixth.status()).toBe(422);
  expect((await sixth.json()).message).toBe("El contacto no puede tener más de 5 etiquetas.");
  const serverLabels = async () =>
    ((await (await client.get(`/api/v1/contacts?search=${phone}`)).json()).data[0].labels as { title: string }[]).map((l) => l.title);

  // One click removes a label at once on the server; focus moves to the chip that took its place.
  await row.getByRole("button", { name: `Quitar la etiqueta ${titles[2]}` }).click();
  await expect(chips).toHaveCount(4);
  expect(await activeElement(page)).toMatchObject({ ariaLabel: `Quitar la etiqueta ${titles[3]}` });
  await expect(status).toContainText(`Etiqueta «${titles[2]}» quitada.`);
  await expect.poll(serverLabels).not.toContain(titles[2]);
  // Undo puts the same label back (a new add), and the focus on its chip.
  await row.getByRole("button", { name: "Deshacer", exact: false }).click();
  await expect(chips.filter({ hasText: titles[2] })).toBeVisible();
  await expect.poll(serverLabels).toContain(titles[2]);
  expect(await activeElement(page)).toMatchObject({ ariaLabel: `Quitar la etiqueta ${titles[2]}` });
  await expect(chips).toHaveCount(5);

  // Removing the last chip moves the focus to the one before it; the undo offer then lapses by itself.
  // (the chips are in the labels' order, the order they were created in)
  await row.getByRole("button", { name: `Quitar la etiqueta ${titles[4]}` }).click();
  await expect(chips).toHaveCount(4);
  expect(await activeElement(page)).toMatchObject({ ariaLabel: `Quitar la etiqueta ${titles[3]}` });
  await page.mouse.move(0, 0);
  await expect(row.getByTestId("label-undo")).toBeVisible();
  await expect(row.getByTestId("label-undo")).toHaveCount(0, { timeout: 15_000 });
  await expect(status).toHaveText("");

  // Removing every chip leaves the focus on the add button.
  for (let left = 4; left > 0; left--) {
    await chips.first().getByRole("button").click();
    await expect(chips).toHaveCount(left - 1);
  }
  await expect(openPicker).toBeFocused();
  await page.reload();
  await page.getByLabel("Buscar por nombre o número").fill(phone);
  await expect(page.getByTestId("contact-row").filter({ hasText: phone })).toContainText("Sin etiquetas");
  expect(await serverLabels()).toEqual([]);
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
  await page.getByRole("link", { name: "Etiquetas", exact: true }).click();
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

/** A contact of our own (a template send creates it, with a conversation), and its id. */
async function newContact(page: Page, phone = uniquePhone()) {
  const client = api(page);
  const send = await client.post("/api/v1/message_templates/send", {
    wa_number: DEMO.number,
    destination: phone,
    template_name: "recordatorio_cita",
    body_params: [
      { key: "1", value: "lunes" },
      { key: "2", value: "9:00" },
    ],
  });
  expect(send.status()).toBe(200);
  const found = await (await client.get(`/api/v1/contacts?search=${phone}`)).json();
  return { phone, id: found.data[0].id as number, lastActivityAt: found.data[0].last_activity_at as string };
}

async function newLabel(page: Page, title: string) {
  const res = await api(page).post("/api/v1/contacts/labels", { title, bg_color: "#fde68a", text_color: "#1f2937" });
  expect(res.status()).toBe(201);
  return (await res.json()).data.id as number;
}

test("contacts filter by label, show their last activity, and the picker never stretches the neighbouring card", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page);
  const client = api(page);
  const tag = unique("Filtro");
  const [shared, other] = [await newLabel(page, `${tag} A`), await newLabel(page, `${tag} B`)];
  const first = await newContact(page);
  const second = await newContact(page);
  const third = await newContact(page);
  for (const [c, ids] of [
    [first, [shared]],
    [second, [shared]],
    [third, [other]],
  ] as const)
    expect((await client.post(`/api/v1/contacts/${c.id}/labels`, { label_ids: ids })).status()).toBe(200);

  // The labels page counts each label's contacts and links to them.
  await page.goto("/labels");
  const labelRow = page.getByTestId("label-row").filter({ hasText: `${tag} A` });
  await expect(labelRow.getByTestId("label-contacts-count")).toHaveText(`2 contactos con «${tag} A»`);
  await expect(
    page
      .getByTestId("label-row")
      .filter({ hasText: `${tag} B` })
      .getByTestId("label-contacts-count"),
  ).toHaveText(`1 contacto con «${tag} B»`);
  await labelRow.getByTestId("label-contacts-count").click();
  await expect(page).toHaveURL(new RegExp(`/contacts\\?label_id=${shared}$`));
  const rows = page.getByTestId("contact-row");
  await expect(rows).toHaveCount(2);
  await expect(page.getByTestId("contacts-count")).toHaveText("2 contactos");
  expect(await rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-contact-id"))))).toEqual([first.id, second.id]);

  // The filter control: checking the second label too shows the contacts holding either.
  const filter = page.getByTestId("label-filter");
  await expect(filter.getByRole("checkbox", { name: `${tag} A` })).toBeChecked();
  await filter.getByRole("checkbox", { name: `${tag} B` }).check();
  await expect(rows).toHaveCount(3);
  await expect(page).toHaveURL(new RegExp(`label_id=${shared}&label_id=${other}$`));
  await filter.getByRole("checkbox", { name: `${tag} A` }).uncheck();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-contact-id", String(third.id));
  // The filter stays open under the agent's hand.
  await expect(filter.getByRole("checkbox", { name: `${tag} A` })).toBeFocused();
  await filter.getByRole("button", { name: "Quitar el filtro" }).click();
  await expect(page).toHaveURL(/\/contacts$/);
  await page.goto(`/contacts?label_id=${shared}`);
  await expect(rows).toHaveCount(2);

  // Each contact shows its last activity (a send made it a conversation), from the API's last_activity_at.
  const firstRow = rows.filter({ hasText: first.phone });
  await expect(firstRow.getByTestId("last-activity")).toContainText("Última actividad:");
  await expect(firstRow.getByTestId("last-activity").locator("time")).toHaveAttribute("datetime", first.lastActivityAt);

  // Two cards side by side: opening the picker on one overlays it, the other keeps its size.
  // Measured once the label filter is there: it comes with the labels' own request, open (the
  // page came with a filter), and moves the cards down when that request ends after the list's.
  await expect(filter).toHaveAttribute("open", "");
  const [a, b] = [rows.nth(0), rows.nth(1)];
  const boxA = await a.boundingBox();
  const boxB = await b.boundingBox();
  expect(Math.abs(boxA!.y - boxB!.y)).toBeLessThan(1);
  await a.getByRole("button", { name: "+ Añadir etiqueta" }).click();
  await expect(a.getByTestId("label-picker")).toBeVisible();
  expect(await b.boundingBox()).toEqual(boxB);
  expect(await a.boundingBox()).toEqual(boxA);
  // The picker is above the neighbour's content, not under it.
  const picker = await a.getByTestId("label-picker").boundingBox();
  expect(picker!.height).toBeGreaterThan(0);
  await shot(page, "contacts-picker-open");
  await page.keyboard.press("Escape");
  await expect(a.getByTestId("label-picker")).toHaveCount(0);
  await expect(a.getByRole("button", { name: "+ Añadir etiqueta" })).toBeFocused();

  // A label id that is not the team's: the API's exact 422.
  const bad = await client.get("/api/v1/contacts?label_id=999999999");
  expect(bad.status()).toBe(422);
  expect(await bad.json()).toEqual({ message: "Etiqueta no encontrada.", errors: { label_id: ["Etiqueta no encontrada."] } });
});

test("the label editor in the inbox's contact panel keeps the focus and offers the undo too", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page);
  const contact = await newContact(page);
  const title = unique("Bandeja");
  await newLabel(page, title);
  const conv = (await (await api(page).get(`/api/v1/conversations?search=${contact.phone}`)).json()).data[0];
  expect(conv.contact.id).toBe(contact.id);
  await page.goto(`/inbox?c=${conv.id}`);
  const panel = page.getByTestId("contact-panel");
  await expect(panel).toBeVisible({ timeout: 30_000 });
  const trigger = panel.getByRole("button", { name: "+ Añadir etiqueta" });
  await trigger.click();
  await panel.getByRole("button", { name: `Añadir etiqueta: ${title}` }).click();
  await expect(panel.getByTestId("label-chip").filter({ hasText: title })).toBeVisible();
  await expect(trigger).toBeFocused();
  await panel.getByRole("button", { name: `Quitar la etiqueta ${title}` }).click();
  await expect(panel.getByTestId("label-chip").filter({ hasText: title })).toHaveCount(0);
  await expect(trigger).toBeFocused();
  await panel.getByTestId("label-undo").click();
  await expect(panel.getByTestId("label-chip").filter({ hasText: title })).toBeVisible();
  await expect(panel.getByRole("button", { name: `Quitar la etiqueta ${title}` })).toBeFocused();
});

test("contacts and labels pages, in Spanish and English, at laptop and phone width: accessible, nothing overflowing", async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page);
  const tag = unique("Vista");
  const label = await newLabel(page, `${tag} VIP`);
  const contact = await newContact(page);
  await api(page).post(`/api/v1/contacts/${contact.id}/labels`, { label_ids: [label] });
  for (const lang of ["es", "en"] as const) {
    await page.evaluate((l) => window.localStorage.setItem("wa_locale", l), lang);
    for (const [suffix, size] of [
      ["", { width: 1280, height: 900 }],
      ["-phone", { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(size);
      await page.goto(`/contacts?label_id=${label}`);
      const row = page.getByTestId("contact-row").first();
      await expect(row).toBeVisible();
      await expect(page.locator("html")).toHaveAttribute("lang", lang);
      await row.getByTestId("label-picker-trigger").click();
      await expect(row.getByTestId("label-picker")).toBeVisible();
      await expectAccessible(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
      await shot(page, `contacts-${lang}${suffix}`);
      await row.getByTestId("label-picker-trigger").click();
      await row.getByTestId("contact-labels").getByTestId("label-chip").first().getByRole("button").click();
      // The pointer on the offer holds it open while axe and the screenshot take their time.
      await row.getByTestId("label-undo").hover();
      await expectAccessible(page);
      await shot(page, `contacts-undo-${lang}${suffix}`);
      await row.getByTestId("label-undo").click();
      await expect(row.getByTestId("contact-labels").getByTestId("label-chip")).toHaveCount(1);

      await page.goto("/labels");
      await expect(page.getByTestId("label-row").first()).toBeVisible();
      // The new-label card ends with its form (padding and border below it), however long the list beside it.
      const card = page
        .locator("section")
        .filter({ has: page.getByRole("heading", { name: lang === "es" ? "Nueva etiqueta" : "New label" }) });
      const [cardBox, formBox] = [await card.boundingBox(), await card.locator("form").boundingBox()];
      expect(cardBox!.y + cardBox!.height).toBeLessThanOrEqual(formBox!.y + formBox!.height + 18);
      await expectAccessible(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
      await shot(page, `labels-${lang}${suffix}`);
    }
  }
});
