import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { api, expectAccessible, expectNoOverflow, shot, signIn, unique } from "./helpers";
import { DEMO, LIVE_BASE_URL } from "./fixtures";

/**
 * Broadcasts end to end, on the suite's second server: the delivery worker runs in its
 * process and the sandbox number walks each message to READED (playwright.config.ts).
 */
test.use({ baseURL: LIVE_BASE_URL });

/** Three numbers no other run has used (the last digits of the clock, then 0, 1, 2). */
function phones(): string[] {
  const base = `5732${String(Date.now()).slice(-7)}`;
  return [0, 1, 2].map((i) => `${base}${i}`);
}

async function createLabel(page: Page, title: string): Promise<number> {
  const res = await api(page).post("/api/v1/contacts/labels", { title, description: null, bg_color: "#0ea5e9", text_color: "#ffffff" });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).data.id;
}

/** A CSV as a spreadsheet exports it: BOM, `;`, a header row; one bad number and one unknown label. */
function csvFor(numbers: string[], label: string): string {
  return (
    "\uFEFFnumber;name;customer_id;labels\n" +
    `${numbers[0]};Ana Difusión;cus_${numbers[0]};${label}\n` +
    `${numbers[1]};Beto Difusión;;${label}|Etiqueta Que No Existe\n` +
    `${numbers[2]};Carla Difusión;;${label}\n` +
    "12;Número Malo;;\n"
  );
}

async function importCsv(page: Page, csv: string) {
  await page.goto("/contacts");
  await page.getByRole("link", { name: "Importar desde CSV" }).click();
  await expect(page.getByRole("heading", { name: "Importar contactos" })).toBeVisible();
  await page.getByLabel("Archivo CSV").setInputFiles({ name: "clientes.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await expect(page.getByText("clientes.csv: unas 4 filas")).toBeVisible();
  await page.getByRole("button", { name: "Importar" }).click();
  // The file names a label the team lacks: the page asks first (e2e/contacts-import.spec.ts creates it).
  await page.getByRole("button", { name: "Importar sin ellas" }).click();
  await expect(page.getByTestId("import-report")).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Progreso de la importación" })).toHaveAttribute("data-percent", "100");
}

test("import a CSV, build an audience by label, send a broadcast and watch it reach READED live, export its recipients", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page);
  const label = unique("Difusión");
  await createLabel(page, label);
  const numbers = phones();

  // 1. The import: progress, counts, the rejected row with its line and reason, the warning.
  await importCsv(page, csvFor(numbers, label));
  await expect(page.getByTestId("import-count-processed")).toHaveText("4");
  await expect(page.getByTestId("import-count-created")).toHaveText("3");
  await expect(page.getByTestId("import-count-updated")).toHaveText("0");
  await expect(page.getByTestId("import-rejected")).toContainText("5");
  await expect(page.getByTestId("import-rejected").locator("tbody tr")).toHaveCount(1);
  await expect(page.getByTestId("import-rejected").locator("tbody tr td").first()).toHaveText("5");
  await expect(page.getByTestId("import-warnings")).toContainText("Etiqueta Que No Existe");
  await expectAccessible(page);

  // Importing again updates, never duplicates.
  await page
    .getByLabel("Archivo CSV")
    .setInputFiles({ name: "clientes.csv", mimeType: "text/csv", buffer: Buffer.from(csvFor(numbers, label)) });
  await page.getByRole("button", { name: "Importar" }).click();
  await page.getByRole("button", { name: "Importar sin ellas" }).click();
  await expect(page.getByTestId("import-count-updated")).toHaveText("3");
  await expect(page.getByTestId("import-count-created")).toHaveText("0");

  // 2. The wizard: the audience by label, with its live size.
  await page.goto("/broadcasts");
  await page.getByTestId("new-broadcast").click();
  await expect(page.getByRole("heading", { name: "Audiencia" })).toBeVisible();
  await page.getByRole("button", { name: "Siguiente" }).click();
  await expect(page.locator('[data-field-error="audience.labels_any"]')).toHaveText(
    "Elija al menos una etiqueta en «alguna» o en «todas».",
  );
  await page.getByTestId("picker-audience.labels_any").getByRole("checkbox", { name: label }).check();
  await expect(page.getByTestId("audience-size")).toHaveText("Audiencia: 3 contactos");
  // Excluding the same label leaves nobody; unticking it brings the three back.
  await page.getByTestId("picker-audience.labels_exclude").getByRole("checkbox", { name: label }).check();
  await expect(page.getByTestId("audience-size")).toHaveText("Audiencia: 0 contactos");
  await page.getByTestId("picker-audience.labels_exclude").getByRole("checkbox", { name: label }).uncheck();
  await expect(page.getByTestId("audience-size")).toHaveText("Audiencia: 3 contactos");
  await expectAccessible(page);
  // Steps move with the keyboard: Enter in the form goes on, focus lands on the step's heading.
  await page.getByRole("button", { name: "Siguiente" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Plantilla", level: 2 })).toBeFocused();

  // 3. The template, with the send form's preview.
  await page.getByRole("radio", { name: /confirmacion_pedido/ }).check();
  await page.getByRole("button", { name: "Siguiente" }).click();

  // 4. Parameters: the header from the contact's name, the body fixed; an unknown column is the server's to refuse.
  await page.getByLabel("Valor de Encabezado {{1}}").selectOption("name");
  await expect(page.getByTestId("template-preview")).toContainText("Hola [nombre]");
  await page.getByLabel("Texto de Cuerpo {{1}}").fill("A-{{apellido}}");
  await page.getByLabel("Texto de Cuerpo {{2}}").fill("martes");
  await expect(page.getByTestId("template-preview")).toContainText("llega el martes");
  // The template's URL button takes its {{1}} too: each recipient's own link, from its number.
  await page.locator("[id='button_params.0.value-source']").selectOption("number");
  await page.getByRole("button", { name: "Siguiente" }).click();

  // 5. Name, replies and schedule.
  const name = unique("Promo e2e");
  await page.getByRole("button", { name: "Siguiente" }).click();
  await expect(page.locator('[data-field-error="name"]')).toHaveText("Escriba un nombre para la difusión.");
  await page.getByLabel("Nombre de la difusión").fill(name);
  await page.getByRole("button", { name: "Siguiente" }).click();

  // 6. Review and send: the server's 422 lands on its field, on its step.
  await expect(page.getByTestId("broadcast-review")).toContainText(label);
  await expect(page.getByTestId("audience-size")).toHaveText("Audiencia: 3 contactos");
  await expectAccessible(page);
  await page.getByTestId("broadcast-submit").click();
  await expect(page.getByRole("heading", { name: "Parámetros" })).toBeVisible();
  await expect(page.locator('[data-field-error="body_params.0.value"]')).toContainText("La columna {{apellido}} no existe");
  await expect(page.getByRole("button", { name: /Parámetros.*tiene errores/ })).toBeVisible();
  await page.getByLabel("Texto de Cuerpo {{1}}").fill("A-77");
  await page.getByRole("button", { name: /Revisar y enviar/ }).click();
  await page.getByTestId("broadcast-submit").click();

  // 7. The broadcast's page: live from the event stream, no reload from here on.
  await expect(page).toHaveURL(/\/broadcasts\/\d+$/);
  const id = Number(new URL(page.url()).pathname.split("/").pop());
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(page.getByTestId("live-state")).toHaveAttribute("data-state", "open");
  let reloads = 0;
  page.on("framenavigated", (f) => {
    if (f === page.mainFrame()) reloads++;
  });
  const bar = page.getByRole("progressbar", { name: `Progreso de «${name}»` });
  await expect(bar).toHaveAttribute("aria-valuemax", "3");
  await expect(bar).toHaveAttribute("aria-valuenow", "3", { timeout: 30_000 });
  await expect(page.getByTestId("funnel-queued")).toHaveAttribute("data-value", "3");
  await expect(page.getByTestId("funnel-read")).toHaveAttribute("data-value", "3", { timeout: 45_000 });
  await expect(page.getByTestId("funnel-delivered")).toHaveAttribute("data-value", "3");
  await expect(page.getByTestId("funnel-failed")).toHaveAttribute("data-value", "0");
  await expect(page.getByTestId("broadcast")).toHaveAttribute("data-status", "DONE", { timeout: 15_000 });
  // A customer answers: the funnel's last stage follows.
  const reply = await api(page).post("/api/v1/sandbox/inbound", {
    wa_number: DEMO.number,
    from: numbers[1],
    type: "text",
    payload: { text: "¡Me interesa!" },
  });
  expect(reply.status(), await reply.text()).toBe(200);
  await expect(page.getByTestId("funnel-replied")).toHaveAttribute("data-value", "1", { timeout: 15_000 });
  expect(reloads).toBe(0);
  // The timeline's table holds the sends as text.
  await expect(page.getByTestId("timeline-table").locator("tbody tr").first()).toBeAttached();

  // 8. Recipients: filter, and the CSV export of the whole list.
  await page.getByLabel("Filtrar por estado").selectOption("READED");
  await expect(page.getByTestId("recipient-row")).toHaveCount(3);
  await page.getByLabel("Filtrar por estado").selectOption("FAILED");
  await expect(page.getByText("No hay destinatarios con este estado.")).toBeVisible();
  await page.getByLabel("Filtrar por estado").selectOption("");
  await expect(page.getByTestId("recipient-row")).toHaveCount(3);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Exportar CSV" }).click()]);
  const csv = fs.readFileSync((await download.path())!, "utf8").replace(/^\uFEFF/, "");
  const lines = csv.trim().split(/\r?\n/);
  expect(lines[0]).toBe("number,name,status,status_label,error_code,error_title,replied,update_id");
  expect(lines).toHaveLength(4);
  for (const n of numbers) expect(lines.some((l) => l.startsWith(`${n},`) && l.includes(",READED,Leído,"))).toBe(true);
  await expectAccessible(page);

  // 9. The list shows it with its counts and a full bar, and links to it.
  await page.goto("/broadcasts");
  const row = page.getByTestId("broadcast-row").filter({ hasText: name });
  await expect(row).toContainText("confirmacion_pedido");
  await expect(row).toContainText("Terminada");
  await expect(row).toContainText("3 destinatarios · 3 leídos · 0 fallidos");
  await expect(row.getByRole("progressbar")).toHaveAttribute("data-percent", "100");
  await row.getByRole("link", { name }).click();
  await expect(page).toHaveURL(new RegExp(`/broadcasts/${id}$`));
});

test("a scheduled broadcast pauses, resumes, and cancels only once confirmed", async ({ page }) => {
  await signIn(page);
  const label = unique("Programada");
  const labelId = await createLabel(page, label);
  const numbers = phones();
  await importCsv(page, csvFor(numbers, label));
  const name = unique("Programada e2e");
  const res = await api(page).post("/api/v1/broadcasts", {
    name,
    wa_number: DEMO.number,
    template_name: "recordatorio_cita",
    body_params: [
      { key: "1", value: "lunes" },
      { key: "2", value: "10:00" },
    ],
    audience: { labels_any: [labelId] },
    scheduled_at: new Date(Date.now() + 24 * 3600_000).toISOString(),
  });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()).data;

  await page.goto(`/broadcasts/${id}`);
  await expect(page.getByTestId("broadcast")).toHaveAttribute("data-status", "SCHEDULED");
  await expect(page.getByText(/^Programada para el /)).toBeVisible();
  await page.getByRole("button", { name: "Pausar" }).click();
  await expect(page.getByTestId("broadcast")).toHaveAttribute("data-status", "PAUSED");
  await page.getByRole("button", { name: "Reanudar" }).click();
  await expect(page.getByTestId("broadcast")).toHaveAttribute("data-status", "SCHEDULED");

  // Cancel asks first; "No" keeps it.
  await page.getByRole("button", { name: "Cancelar difusión" }).click();
  const dialog = page.getByRole("dialog", { name: "¿Cancelar la difusión?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "No, seguir" })).toBeFocused();
  await expectAccessible(page);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("broadcast")).toHaveAttribute("data-status", "SCHEDULED");
  await page.getByRole("button", { name: "Cancelar difusión" }).click();
  await dialog.getByRole("button", { name: "Sí, cancelar" }).click();
  await expect(page.getByTestId("broadcast")).toHaveAttribute("data-status", "CANCELLED");
  await expect(page.getByRole("button", { name: "Cancelar difusión" })).toHaveCount(0);
  await expect(page.getByTestId("funnel-sent")).toHaveAttribute("data-value", "0");
  await page.getByLabel("Filtrar por estado").selectOption("CANCELLED");
  await expect(page.getByTestId("recipient-row")).toHaveCount(3);
});

test("screenshots of every broadcast page at 1280 and 390, in Spanish and English, accessible", async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page);
  const label = unique("Capturas");
  const labelId = await createLabel(page, label);
  const numbers = phones();
  const csv = csvFor(numbers, label);
  const imported = await page.request.post("/api/v1/contacts/import", {
    headers: { origin: LIVE_BASE_URL, "content-type": "text/csv" },
    data: Buffer.from(csv),
  });
  expect(imported.status(), await imported.text()).toBe(200);
  const res = await api(page).post("/api/v1/broadcasts", {
    name: unique("Capturas"),
    wa_number: DEMO.number,
    template_name: "recordatorio_cita",
    body_params: [
      { key: "1", value: "{{name}}" },
      { key: "2", value: "10:00" },
    ],
    audience: { labels_any: [labelId] },
  });
  expect(res.status(), await res.text()).toBe(201);
  const { id } = (await res.json()).data;

  for (const lang of ["es", "en"] as const) {
    await page.evaluate((l) => window.localStorage.setItem("wa_locale", l), lang);
    for (const [suffix, size] of [
      ["desktop", { width: 1280, height: 900 }],
      ["phone", { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(size);
      const pages: [string, string, () => Promise<void>][] = [
        [
          "import",
          "/contacts/import",
          async () => {
            await page.getByTestId("import-file").setInputFiles({ name: "clientes.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
            await page.getByTestId("import-submit").click();
            await page.getByTestId("import-without-labels").click();
            await expect(page.getByTestId("import-report")).toBeVisible();
          },
        ],
        [
          "list",
          "/broadcasts",
          async () => {
            await expect(page.getByTestId(size.width < 768 ? "broadcast-card" : "broadcast-row").first()).toBeVisible();
          },
        ],
        [
          "wizard-audience",
          "/broadcasts/new",
          async () => {
            await page.getByTestId("picker-audience.labels_any").getByRole("checkbox", { name: label }).check();
            await expect(page.getByTestId("audience-size")).toHaveAttribute("data-size", "3");
          },
        ],
        [
          "detail",
          `/broadcasts/${id}`,
          async () => {
            await expect(page.getByTestId("funnel-read")).toHaveAttribute("data-value", "3", { timeout: 45_000 });
            await expect(page.getByTestId("recipient-row")).toHaveCount(3);
          },
        ],
      ];
      for (const [name, url, ready] of pages) {
        await page.goto(url);
        await expect(page.locator("html")).toHaveAttribute("lang", lang);
        await ready();
        await expectAccessible(page);
        await expectNoOverflow(page, size.width);
        await shot(page, `broadcasts-${name}-${suffix}-${lang}`);
      }
      // The wizard's other steps, each once per width and language.
      await page.goto("/broadcasts/new");
      await page.getByTestId("picker-audience.labels_any").getByRole("checkbox", { name: label }).check();
      await page.getByTestId("wizard-next").click();
      await page.getByRole("radio", { name: /promo_navidad/ }).check();
      await page.getByTestId("wizard-next").click();
      await expect(page.locator("#media_file")).toBeVisible();
      await page.locator("[id='body_params.0.value-source']").selectOption("name");
      await page.locator("[id='body_params.1.value']").fill("20%");
      await expectAccessible(page);
      await shot(page, `broadcasts-wizard-params-${suffix}-${lang}`);
      await page.getByTestId("wizard-next").click();
      await page.locator("#name").fill("Navidad");
      await page.getByTestId("wizard-next").click();
      await expect(page.getByTestId("broadcast-review")).toBeVisible();
      await expectAccessible(page);
      await expectNoOverflow(page, size.width);
      await shot(page, `broadcasts-wizard-review-${suffix}-${lang}`);
    }
  }
});
