import fs from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { api, expectAccessible, shot, signIn, unique } from "./helpers";

/**
 * The contacts import asks before creating the labels a file names that the team
 * lacks, creates them when told to, shows each rejected row's cells beside its line and reason,
 * and hands the rejected rows back as a CSV (formulas neutralised, the reason in the UI's language).
 */

/** Numbers no other run has used: the clock's last digits, then the row's index. */
function phones(n: number): string[] {
  const base = `5733${String(Date.now()).slice(-6)}`;
  return Array.from({ length: n }, (_, i) => `${base}${String(i).padStart(2, "0")}`);
}

async function chooseFile(page: Page, csv: string, name = "feria.csv") {
  await page.getByTestId("import-file").setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(csv) });
}

async function downloadRejected(page: Page): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("import-download-rejected").click()]);
  return { name: download.suggestedFilename(), text: fs.readFileSync((await download.path())!, "utf8") };
}

test("asks before creating the file's missing labels, creates them, imports, and downloads the rejected rows", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  const feria = unique("Feria Bogotá");
  // Short enough for the inbox's label filter at 1440 px (e2e/inbox-list.spec.ts measures every option).
  const mayoristas = unique("Mayoristas");
  const numbers = phones(4);
  const csv =
    "\uFEFFnumber;name;labels\n" +
    `${numbers[0]};Ana Feria;${feria}\n` +
    `${numbers[1]};Beto Feria;${feria.toUpperCase()}|${mayoristas}\n` +
    `${numbers[2]};Carla Feria;${feria}\n` +
    `12ab;=HYPERLINK("http://malo.example");${feria}\n` +
    `${numbers[0]};Ana repetida;\n`;

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/contacts/import");
  await chooseFile(page, csv);
  await page.getByRole("button", { name: "Importar", exact: true }).click();

  // 1. The question: the two labels the team lacks, with the rows that name them; nothing written yet.
  const ask = page.getByTestId("import-missing-labels");
  await expect(ask.getByRole("heading", { name: "Etiquetas que el equipo no tiene" })).toBeFocused();
  await expect(ask).toContainText("El archivo nombra 2 etiquetas que no existen.");
  await expect(ask.getByTestId("import-missing-creatable").locator("li")).toHaveText([`${feria}3 filas`, `${mayoristas}1 fila`]);
  await expect(page.getByTestId("import-report")).toHaveCount(0);
  const before = await (await api(page).get(`/api/v1/contacts?search=${numbers[0]}`)).json();
  expect(before.data).toEqual([]);
  await expectAccessible(page);
  await shot(page, "contacts-import-ask-1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page);
  await shot(page, "contacts-import-ask-390");

  // Cancel goes back to the file, untouched; asking again shows the same question.
  await ask.getByRole("button", { name: "Cancelar" }).click();
  await expect(ask).toHaveCount(0);
  await page.getByRole("button", { name: "Importar", exact: true }).click();
  await page.getByRole("button", { name: "Crear estas etiquetas e importar" }).click();

  // 2. The report: counts, the labels created, each rejected row's cells as text with its reason.
  const report = page.getByTestId("import-report");
  await expect(report).toBeVisible();
  await expect(page.getByTestId("import-count-created")).toHaveText("3");
  await expect(page.getByTestId("import-count-rejected")).toHaveText("2");
  await expect(page.getByTestId("import-labels-created").getByTestId("label-chip")).toHaveText([feria, `${mayoristas}`]);
  const rejected = page.getByTestId("import-rejected").locator("tbody tr");
  await expect(rejected).toHaveCount(2);
  await expect(rejected.nth(0).locator("td")).toHaveText([
    "5",
    `number: 12abname: =HYPERLINK("http://malo.example")labels: ${feria}`,
    "El número de teléfono no es válido.",
  ]);
  await expect(rejected.nth(1).locator("td")).toHaveText([
    "6",
    `number: ${numbers[0]}name: Ana repetida`,
    "El número ya aparece en la línea 2 del archivo.",
  ]);
  // Shown as text: the formula is no link and no markup.
  await expect(report.getByRole("link")).toHaveCount(0);
  await expectAccessible(page);
  await shot(page, "contacts-import-report-390");
  await page.setViewportSize({ width: 1440, height: 900 });
  await expectAccessible(page);
  await shot(page, "contacts-import-report-1440");

  // 3. The download: the file's columns plus the reason; the formula neutralised with an apostrophe.
  const file = await downloadRejected(page);
  expect(file.name).toBe("filas-rechazadas.csv");
  expect(file.text).toBe(
    "\uFEFFnumber,name,labels,motivo\r\n" +
      `12ab,"'=HYPERLINK(""http://malo.example"")",${feria},El número de teléfono no es válido.\r\n` +
      `${numbers[0]},Ana repetida,,El número ya aparece en la línea 2 del archivo.\r\n`,
  );

  // The labels exist once, in the team, and the contacts carry them.
  const labels = (await (await api(page).get("/api/v1/contacts/labels?per_page=20&page=1")).json()) as {
    pagination: { total_pages: number };
  };
  const titles: string[] = [];
  for (let p = 1; p <= labels.pagination.total_pages; p++) {
    const res = await (await api(page).get(`/api/v1/contacts/labels?per_page=20&page=${p}`)).json();
    titles.push(...res.data.map((l: { title: string }) => l.title));
  }
  expect(titles.filter((t) => t.toLowerCase() === feria.toLowerCase())).toEqual([feria]);
  const beto = await (await api(page).get(`/api/v1/contacts?search=${numbers[1]}`)).json();
  expect(beto.data[0].labels.map((l: { title: string }) => l.title)).toEqual([feria, `${mayoristas}`]);

  // 4. The same file again: every label exists now, so no question; the contacts are updated.
  await chooseFile(page, csv, "feria-otra-vez.csv");
  await page.getByRole("button", { name: "Importar", exact: true }).click();
  await expect(page.getByTestId("import-count-updated")).toHaveText("3");
  await expect(page.getByTestId("import-missing-labels")).toHaveCount(0);
  await expect(page.getByTestId("import-labels-created")).toHaveCount(0);
});

test("in English the rejected rows' reasons and the download are in English; a huge failure says what it kept", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.evaluate(() => window.localStorage.setItem("wa_locale", "en"));
  await page.goto("/contacts/import");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  const [n] = phones(1);
  const lines = ["phone,name", `${n},Fine`];
  for (let i = 0; i < 1005; i++) lines.push(`+x${i},-${i}`);
  await chooseFile(page, lines.join("\n"), "many.csv");
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByTestId("import-count-rejected")).toHaveText(/^1,?005$/);
  await expect(page.getByTestId("import-rejected-capped")).toHaveText(
    /^The first 1,?000 of 1,?005 rejected rows are shown and downloaded\.$/,
  );
  await expect(page.getByTestId("import-rejected").locator("tbody tr").first().locator("td")).toHaveText([
    "3",
    "phone: +x0name: -0",
    "The phone number is not valid.",
  ]);
  const file = await downloadRejected(page);
  expect(file.name).toBe("rejected-rows.csv");
  const rows = file.text.replace(/^\uFEFF/, "").split("\r\n");
  expect(rows[0]).toBe("phone,name,reason");
  expect(rows[1]).toBe("'+x0,'-0,The phone number is not valid.");
  expect(rows.filter(Boolean)).toHaveLength(1001);
  await expectAccessible(page);
  await shot(page, "contacts-import-capped-en-1440");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page);
  await shot(page, "contacts-import-capped-en-390");
});

test("in English the warnings are in English too, grouped by reason", async ({ page }) => {
  await signIn(page);
  await page.evaluate(() => window.localStorage.setItem("wa_locale", "en"));
  await page.goto("/contacts/import");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  const [a, b] = phones(2);
  await chooseFile(page, ["phone,name,marketing_opt_out", `${a},Ana,quizás`, `${b},Beto,tal vez`].join("\n"), "warned.csv");
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByTestId("import-count-created")).toHaveText("2");
  const warnings = page.getByTestId("import-warnings");
  await expect(warnings.locator("tbody tr")).toHaveCount(1);
  await expect(warnings.locator("tbody tr td").last()).toHaveText(
    "The marketing_opt_out value is not recognized (use yes or no); it was ignored.",
  );
  await expect(warnings).not.toContainText("se ignoró");
  await expectAccessible(page);
});
