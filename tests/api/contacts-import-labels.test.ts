import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createContact, createLabel, createTeam, uniqueNumber } from "../helpers/factories";
import { getDb } from "@/db/client";
import { contactLabels, labels } from "@/db/schema";
import { importPreviewResponse, importResponse, importStreamLine } from "@/lib/contacts/import-schemas";
import { rejectedRowsCsv } from "@/lib/contacts/rejected-csv";

/**
 * The import asks before creating missing labels (`dry_run=1` lists them,
 * `create_missing_labels=1` creates them), and hands its rejected rows back with their cells
 * (`rejected_rows=1`) for the "filas rechazadas" download. Without these parameters the answer is
 * the one tests/api/contacts-import.test.ts pins.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const PATH = "/api/v1/contacts/import";

async function postCsv(token: string, body: string, query = "", headers: Record<string, string> = {}) {
  const res = await fetch(server.url + PATH + query, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "text/csv", ...headers },
    body,
  });
  const text = await res.text();
  let parsed: any = null;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: res.status, body: parsed, text };
}

/** The team's labels (title → id), straight from the table. */
async function labelsOf(teamId: number): Promise<Map<string, number>> {
  const db = await getDb();
  const rows = await db.select({ id: labels.id, title: labels.title }).from(labels).where(eq(labels.teamId, teamId));
  return new Map(rows.map((r) => [r.title, r.id]));
}

async function labelsOfContact(token: string, number: string): Promise<string[]> {
  const res = await apiClient(server.url, token).get(`/api/v1/contacts?search=${number}`);
  const c = res.body.data.find((x: any) => x.customer_number === number);
  return c ? c.labels.map((l: any) => l.title) : [];
}

describe("POST /api/v1/contacts/import: missing labels", () => {
  it("dry_run lists the labels the team lacks (another team's do not count) and writes nothing", async () => {
    const team = await createTeam();
    const other = await createTeam();
    await createLabel(team.id, { title: "VIP" });
    await createLabel(other.id, { title: "Feria Bogotá" });
    const long = "L".repeat(101);
    const rows = Array.from({ length: 21 }, (_, i) => `${uniqueNumber()},Cliente ${i},Feria Bogotá|vip`);
    const csv = [
      "number,name,labels",
      ...rows,
      `${uniqueNumber()},Otro,FERIA BOGOTÁ|Nueva`,
      `malo,Rechazada,Solo En Fila Rechazada`,
      `${uniqueNumber()},Largo,${long}`,
    ].join("\n");
    const res = await postCsv(team.token, csv, "?dry_run=1");
    expect(res.status, res.text).toBe(200);
    expect(importPreviewResponse.parse(res.body)).toEqual(res.body);
    expect(res.body).toEqual({
      message: "Archivo comprobado: 3 etiquetas del archivo no existen.",
      data: {
        processed: 24,
        rejected: 1,
        missing_labels: [
          { title: "Feria Bogotá", rows: 22, problem: null, reason: null },
          { title: "Nueva", rows: 1, problem: null, reason: null },
          {
            title: `${"L".repeat(100)}…`,
            rows: 1,
            problem: "title_invalid",
            reason: `La etiqueta «${"L".repeat(100)}…» no se pudo crear (El campo title no puede tener más de 100 caracteres); se omitió.`,
          },
        ],
        missing_labels_total: 3,
      },
    });
    // Nothing written: no contact, no label, in either team.
    expect((await apiClient(server.url, team.token).get("/api/v1/contacts?per_page=1")).body.pagination.total_items).toBe(0);
    expect([...(await labelsOf(team.id)).keys()]).toEqual(["VIP"]);
    expect([...(await labelsOf(other.id)).keys()]).toEqual(["Feria Bogotá"]);

    const none = await postCsv(team.token, `number,labels\n${uniqueNumber()},vip\n`, "?dry_run=1");
    expect(none.body).toEqual({
      message: "Archivo comprobado: todas sus etiquetas existen.",
      data: { processed: 1, rejected: 0, missing_labels: [], missing_labels_total: 0 },
    });
  });

  it("create_missing_labels creates each missing label once, in the team, assigns it within the 5-label cap, and never creates an invalid title", async () => {
    const team = await createTeam();
    const other = await createTeam();
    const otherFeria = await createLabel(other.id, { title: "Feria Bogotá" });
    const own = [];
    for (const t of ["A1", "A2", "A3", "A4"]) own.push(await createLabel(team.id, { title: t }));
    const full = await createContact(team.id, { labelIds: own.map((l) => l.id) });
    const numbers = Array.from({ length: 21 }, () => uniqueNumber());
    const long = "x".repeat(101);
    const csv = [
      "number,name,labels",
      ...numbers.map((n, i) => `${n},Cliente ${i},Feria Bogotá`),
      // Holds 4 labels: the first new one fits, the second is left out by the cap.
      `${full.customerNumber},Lleno,feria bogotá|Mayorista`,
      `${uniqueNumber()},Largo,${long}|Mayorista`,
    ].join("\n");
    const res = await postCsv(team.token, csv, "?create_missing_labels=1");
    expect(res.status, res.text).toBe(200);
    expect(importResponse.parse(res.body)).toEqual(res.body);
    const mine = await labelsOf(team.id);
    expect([...mine.keys()].sort()).toEqual(["A1", "A2", "A3", "A4", "Feria Bogotá", "Mayorista"]);
    expect(res.body.data.labels_created).toEqual([
      { id: mine.get("Feria Bogotá"), title: "Feria Bogotá", description: null, bg_color: "#dcfce7", text_color: "#14532d" },
      { id: mine.get("Mayorista"), title: "Mayorista", description: null, bg_color: "#dcfce7", text_color: "#14532d" },
    ]);
    expect(mine.get("Feria Bogotá")).not.toBe(otherFeria.id);
    expect(res.body.data).toMatchObject({ processed: 23, created: 22, updated: 1, rejected: [] });
    expect(res.body.data.warnings).toEqual([
      {
        line: 23,
        reason: "El contacto no puede tener más de 5 etiquetas; se omitieron: Mayorista.",
        code: "label_cap",
        labels: ["Mayorista"],
      },
      {
        line: 24,
        reason: `La etiqueta «${"x".repeat(100)}…» no se pudo crear (El campo title no puede tener más de 100 caracteres); se omitió.`,
        code: "label_title_invalid",
        labels: [`${"x".repeat(100)}…`],
      },
    ]);
    for (const n of numbers.slice(0, 3)) expect(await labelsOfContact(team.token, n)).toEqual(["Feria Bogotá"]);
    expect(await labelsOfContact(team.token, full.customerNumber!)).toEqual(["A1", "A2", "A3", "A4", "Feria Bogotá"]);
    // The other team's label of the same title is untouched and not assigned to anyone.
    expect([...(await labelsOf(other.id)).keys()]).toEqual(["Feria Bogotá"]);
    const db = await getDb();
    expect(await db.select().from(contactLabels).where(eq(contactLabels.labelId, otherFeria.id))).toEqual([]);

    // Re-import, same file, same option: nothing new, nothing duplicated.
    const again = await postCsv(team.token, csv, "?create_missing_labels=1");
    expect(again.body.data).toMatchObject({ processed: 23, created: 0, updated: 23, rejected: [], labels_created: [] });
    expect((await labelsOf(team.id)).size).toBe(6);
    expect(await labelsOfContact(team.token, numbers[0])).toEqual(["Feria Bogotá"]);
    expect(
      (
        await db
          .select({ id: labels.id })
          .from(labels)
          .where(and(eq(labels.teamId, team.id), sql`lower(${labels.title}) = 'feria bogotá'`))
      ).length,
    ).toBe(1);
  });

  it("without the option nothing is created (the current answer); a bad option value is a 422", async () => {
    const team = await createTeam();
    const res = await postCsv(team.token, `number,labels\n${uniqueNumber()},Nueva\n`);
    expect(res.body.data).toEqual({
      processed: 1,
      created: 1,
      updated: 0,
      rejected: [],
      warnings: [{ line: 2, reason: "La etiqueta «Nueva» no existe; se omitió.", code: "label_unknown", labels: ["Nueva"] }],
    });
    expect((await labelsOf(team.id)).size).toBe(0);
    const bad = await postCsv(team.token, `number\n${uniqueNumber()}\n`, "?create_missing_labels=maybe");
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({
      message: "El parámetro create_missing_labels debe ser 0, 1, true o false.",
      errors: { create_missing_labels: ["El parámetro create_missing_labels debe ser 0, 1, true o false."] },
    });
  });

  it("creates at most 50 labels per import, and a label named in two batches once (streamed)", async () => {
    const team = await createTeam();
    const titles = Array.from({ length: 52 }, (_, i) => `Nueva ${String(i + 1).padStart(2, "0")}`);
    const lines = ["number,labels"];
    for (let i = 0; i < titles.length; i += 4) lines.push(`${uniqueNumber()},${titles.slice(i, i + 4).join("|")}`);
    // Past the first batch of 2,000 rows, the first title again.
    for (let i = 0; i < 2100; i++) lines.push(`57320${String(i).padStart(7, "0")},`);
    const late = `573219999999`;
    lines.push(`${late},nueva 01`);
    const preview = await postCsv(team.token, lines.join("\n"), "?dry_run=1");
    expect(preview.body.data.missing_labels_total).toBe(52);
    expect(preview.body.data.missing_labels.filter((l: any) => l.problem === "too_many_new_labels").map((l: any) => l.title)).toEqual([
      "Nueva 51",
      "Nueva 52",
    ]);
    const res = await fetch(server.url + PATH + "?create_missing_labels=true", {
      method: "POST",
      headers: { authorization: `Bearer ${team.token}`, "content-type": "text/csv", accept: "application/x-ndjson" },
      body: lines.join("\n"),
    });
    const out = (await res.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    for (const l of out) expect(importStreamLine.parse(l)).toEqual(l);
    const done = out.at(-1);
    expect(done.type).toBe("done");
    expect(done.data.labels_created.map((l: any) => l.title)).toEqual(titles.slice(0, 50));
    expect(done.data.warnings).toEqual([
      {
        line: 14,
        reason: "La etiqueta «Nueva 51» no se creó: una importación crea como máximo 50 etiquetas; se omitió.",
        code: "label_too_many_new",
        labels: ["Nueva 51"],
      },
      {
        line: 14,
        reason: "La etiqueta «Nueva 52» no se creó: una importación crea como máximo 50 etiquetas; se omitió.",
        code: "label_too_many_new",
        labels: ["Nueva 52"],
      },
    ]);
    expect((await labelsOf(team.id)).size).toBe(50);
    expect(await labelsOfContact(team.token, late)).toEqual(["Nueva 01"]);
  });
});

describe("POST /api/v1/contacts/import: rejected rows with their cells", () => {
  it("rejected_rows=1 gives each rejected row's cells, code and header; control characters never come back", async () => {
    const team = await createTeam();
    await createContact(team.id, { customerId: "tomado" });
    const n1 = uniqueNumber();
    const csv = [
      "Teléfono;Nombre;customer_id;Etiquetas;extra",
      `${n1};Ana;;;`, // 2
      `12ab;=HYPERLINK("http://x");;;`, // 3: number_invalid, a formula kept as text
      `${n1};Ana otra vez;;;`, // 4: number_repeated (2)
      `;Sin número;;;`, // 5
      `${uniqueNumber()};Mal\u0001nombre;;;`, // 6: bad characters
      `${uniqueNumber()};Tomado;tomado;;`, // 7: customer_id held by another contact (found at the write)
      `${uniqueNumber()};"sin cerrar`, // 8: unreadable
    ].join("\n");
    const res = await postCsv(team.token, csv, "?rejected_rows=1");
    expect(res.status, res.text).toBe(200);
    expect(importResponse.parse(res.body)).toEqual(res.body);
    expect(res.body.message).toBe("Importación terminada: 1 contactos importados, 6 filas rechazadas.");
    expect(res.body.data.columns).toEqual(["Teléfono", "Nombre", "customer_id", "Etiquetas", "extra"]);
    expect(res.body.data.rejected_total).toBe(6);
    expect(res.body.data.rejected).toEqual([
      {
        line: 3,
        reason: "El número de teléfono no es válido.",
        code: "number_invalid",
        row: ["12ab", '=HYPERLINK("http://x")', "", "", ""],
      },
      {
        line: 4,
        reason: "El número ya aparece en la línea 2 del archivo.",
        code: "number_repeated",
        first_line: 2,
        row: [n1, "Ana otra vez", "", "", ""],
      },
      { line: 5, reason: "Falta el número de teléfono.", code: "number_missing", row: ["", "Sin número", "", "", ""] },
      {
        line: 6,
        reason: "La fila contiene caracteres no válidos.",
        code: "bad_characters",
        row: [expect.any(String), "Mal\uFFFDnombre", "", "", ""],
      },
      {
        line: 7,
        reason: "El customer_id ya pertenece a otro contacto.",
        code: "customer_id_taken",
        row: [expect.any(String), "Tomado", "tomado", "", ""],
      },
      { line: 8, reason: "La fila no se pudo leer (comillas sin cerrar o fila demasiado larga).", code: "unreadable", row: null },
    ]);
  });

  it("keeps the first 1,000 rejected rows and counts the rest", async () => {
    const team = await createTeam();
    const lines = ["number,name", `${uniqueNumber()},Bien`];
    for (let i = 0; i < 1200; i++) lines.push(`x${i},Mal ${i}`);
    const res = await postCsv(team.token, lines.join("\n"), "?rejected_rows=1");
    expect(res.body.message).toBe("Importación terminada: 1 contactos importados, 1200 filas rechazadas.");
    expect(res.body.data.rejected_total).toBe(1200);
    expect(res.body.data.rejected).toHaveLength(1000);
    expect(res.body.data.rejected[0]).toMatchObject({ line: 3, row: ["x0", "Mal 0"] });
    expect(res.body.data.rejected.at(-1)).toMatchObject({ line: 1002, row: ["x999", "Mal 999"] });
  });

  it("the download: the file's columns and a reason, formulas neutralised, and it imports back once fixed", async () => {
    const csv = rejectedRowsCsv(
      ["number", "name", "labels"],
      [{ row: ["+57 300 111", "=cmd|' /C calc'!A0", "VIP|Bogotá"] }, { row: ["@x", "-2", "a,b", "extra"] }, { row: null }],
      "motivo",
      (i) => ["El número de teléfono no es válido.", "Uno; dos", "Ilegible"][i],
    );
    expect(csv).toBe(
      "\uFEFFnumber,name,labels,,motivo\r\n" +
        "'+57 300 111,'=cmd|' /C calc'!A0,VIP|Bogotá,,El número de teléfono no es válido.\r\n" +
        `'@x,'-2,"a,b",extra,"Uno; dos"\r\n` +
        ",,,,Ilegible\r\n",
    );
    // The fixed file comes back: the apostrophe the download put before "+57…" is taken off.
    const team = await createTeam();
    const n = uniqueNumber();
    const res = await postCsv(team.token, `number,name,motivo\n'+${n},'=SUMA(1),arreglado\n`);
    expect(res.body.data).toMatchObject({ created: 1, rejected: [] });
    const stored = await apiClient(server.url, team.token).get(`/api/v1/contacts?search=${n}`);
    expect(stored.body.data[0]).toMatchObject({ customer_number: n, name: "=SUMA(1)" });
  });
});
