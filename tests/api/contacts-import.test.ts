import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createContact, createLabel, createTeam, uniqueNumber } from "../helpers/factories";
import { importResponse, importStreamLine } from "@/lib/contacts/import-schemas";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const PATH = "/api/v1/contacts/import";

async function postCsv(token: string, body: string | Uint8Array, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + PATH, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "text/csv", ...headers },
    body: body as BodyInit,
  });
  const text = await res.text();
  let parsed: any = null;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: res.status, body: parsed, text, headers: res.headers };
}

/** Every contact of the team (numbers, names, customer_ids, label titles), by number. */
async function contactsOf(token: string) {
  const api = apiClient(server.url, token);
  const out = new Map<string, { name: string; customer_id: string | null; labels: string[] }>();
  for (let page = 1; ; page++) {
    const res = await api.get(`/api/v1/contacts?per_page=100&page=${page}`);
    for (const c of res.body.data)
      out.set(c.customer_number, { name: c.name, customer_id: c.customer_id, labels: c.labels.map((l: any) => l.title) });
    if (page >= res.body.pagination.total_pages) break;
  }
  return out;
}

describe("POST /api/v1/contacts/import", () => {
  it("imports rows with header aliases, reports bad rows by line, and a re-import updates without duplicating", async () => {
    const team = await createTeam();
    await createLabel(team.id, { title: "VIP" });
    await createLabel(team.id, { title: "Bogotá" });
    const [n1, n2, n3] = [uniqueNumber(), uniqueNumber(), uniqueNumber()];
    const csv = [
      "Teléfono,Nombre,customer_id,Etiquetas,extra",
      `+${n1.slice(0, 2)} ${n1.slice(2, 5)}-${n1.slice(5)},Ana,c-1,VIP|bogotá,x`, // 2: formatted number, labels case-insensitive
      `${n2},"Pérez, Juan",,Inexistente,`, // 3: unknown label → warning
      `,Sin número,,,`, // 4: missing number
      `12ab,Malo,,,`, // 5: bad number
      `${n1},Ana otra vez,,,`, // 6: repeated number → reported, first stands
      `${n3},=cmd|' /C calc'!A0,c-1,,`, // 7: repeated customer_id
      `00${n3},=cmd|' /C calc'!A0,,,`, // 8: formula kept as text; 00 prefix normalized
      "",
    ].join("\n");
    const res = await postCsv(team.token, csv);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      message: "Importación terminada: 3 contactos importados, 4 filas rechazadas.",
      data: {
        processed: 7,
        created: 3,
        updated: 0,
        rejected: [
          { line: 4, reason: "Falta el número de teléfono." },
          { line: 5, reason: "El número de teléfono no es válido." },
          { line: 6, reason: "El número ya aparece en la línea 2 del archivo." },
          { line: 7, reason: "El customer_id ya aparece en la línea 2 del archivo." },
        ],
        warnings: [{ line: 3, reason: "La etiqueta «Inexistente» no existe; se omitió.", code: "label_unknown", labels: ["Inexistente"] }],
      },
    });
    expect(importResponse.parse(res.body)).toEqual(res.body);
    let stored = await contactsOf(team.token);
    expect(stored.size).toBe(3);
    expect(stored.get(n1)).toEqual({ name: "Ana", customer_id: "c-1", labels: ["VIP", "Bogotá"] });
    expect(stored.get(n2)).toEqual({ name: "Pérez, Juan", customer_id: null, labels: [] });
    expect(stored.get(n3)).toEqual({ name: "=cmd|' /C calc'!A0", customer_id: null, labels: [] });

    // Re-import: names replaced when given, kept when empty; customer_id set; labels added; nothing duplicated.
    const again = [`number;name;customer_id;labels`, `${n1};;;VIP`, `${n2};Juan Pérez;c-2;VIP`, `${n3};Tercero;;`].join("\r\n");
    const res2 = await postCsv(team.token, again);
    expect(res2.body.data).toMatchObject({ processed: 3, created: 0, updated: 3, rejected: [], warnings: [] });
    stored = await contactsOf(team.token);
    expect(stored.size).toBe(3);
    expect(stored.get(n1)).toEqual({ name: "Ana", customer_id: "c-1", labels: ["VIP", "Bogotá"] });
    expect(stored.get(n2)).toEqual({ name: "Juan Pérez", customer_id: "c-2", labels: ["VIP"] });
    expect(stored.get(n3)?.name).toBe("Tercero");
  });

  it("reads UTF-8 with a BOM, ';' separators, CRLF and quoted fields spanning lines, reporting each row's first line", async () => {
    const team = await createTeam();
    const [n1, n2] = [uniqueNumber(), uniqueNumber()];
    const csv = `\ufeffcustomer_number;name\r\n${n1};"Línea uno\r\nlínea dos"\r\n\r\nnope;x\r\n${n2};"Niño; ""El Toro"""\r\n`;
    const res = await postCsv(team.token, new TextEncoder().encode(csv));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      processed: 3,
      created: 2,
      updated: 0,
      rejected: [{ line: 5, reason: "El número de teléfono no es válido." }],
      warnings: [],
    });
    const stored = await contactsOf(team.token);
    expect(stored.get(n1)?.name).toBe("Línea uno\r\nlínea dos");
    expect(stored.get(n2)?.name).toBe('Niño; "El Toro"');
  });

  it("keeps the 5-label cap per contact: extra labels are a warning on the row", async () => {
    const team = await createTeam();
    const labels = [];
    for (const t of ["L1", "L2", "L3", "L4", "L5", "L6", "L7"]) labels.push(await createLabel(team.id, { title: t }));
    const existing = await createContact(team.id, { labelIds: [labels[0].id, labels[1].id, labels[2].id, labels[3].id] });
    const fresh = uniqueNumber();
    const csv = `number,labels\n${existing.customerNumber},L1|L5|L6|L7\n${fresh},L1|L2|L3|L4|L5|L6|L7\n`;
    const res = await postCsv(team.token, csv);
    expect(res.body.data.warnings).toEqual([
      { line: 2, reason: "El contacto no puede tener más de 5 etiquetas; se omitieron: l6, l7.", code: "label_cap", labels: ["l6", "l7"] },
      { line: 3, reason: "El contacto no puede tener más de 5 etiquetas; se omitieron: l6, l7.", code: "label_cap", labels: ["l6", "l7"] },
    ]);
    const stored = await contactsOf(team.token);
    expect(stored.get(existing.customerNumber!)?.labels).toEqual(["L1", "L2", "L3", "L4", "L5"]);
    expect(stored.get(fresh)?.labels).toEqual(["L1", "L2", "L3", "L4", "L5"]);
  });

  it("rejects a customer_id already held by another contact of the team, and only uses the team's own labels", async () => {
    const team = await createTeam();
    const other = await createTeam();
    await createLabel(other.id, { title: "Ajena" });
    const holder = await createContact(team.id, { customerId: "cid-x" });
    const n = uniqueNumber();
    const res = await postCsv(team.token, `number,customer_id,labels\n${n},cid-x,\n${uniqueNumber()},,Ajena\n`);
    expect(res.body.data.rejected).toEqual([{ line: 2, reason: "El customer_id ya pertenece a otro contacto." }]);
    expect(res.body.data.warnings).toEqual([
      { line: 3, reason: "La etiqueta «Ajena» no existe; se omitió.", code: "label_unknown", labels: ["Ajena"] },
    ]);
    const stored = await contactsOf(team.token);
    expect(stored.has(n)).toBe(false);
    expect(stored.get(holder.customerNumber!)?.customer_id).toBe("cid-x");
    // Nothing landed in the other team.
    expect((await contactsOf(other.token)).size).toBe(0);
  });

  it("refuses whole files with exact texts: type, size, encoding, emptiness, no number column", async () => {
    const team = await createTeam();
    const wrongType = await postCsv(team.token, "number\n573001234567\n", { "content-type": "application/json" });
    expect(wrongType.status).toBe(415);
    expect(wrongType.body).toEqual({ message: "El encabezado Content-Type debe ser text/csv." });

    const big = new Uint8Array(10 * 1024 * 1024 + 1).fill(0x41);
    const tooLarge = await postCsv(team.token, big);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toEqual({ message: "El archivo CSV no puede superar 10 MB." });

    const latin1 = Uint8Array.from([...new TextEncoder().encode("number,name\n573001234567,Jos"), 0xe9, 0x0a]);
    const bad = await postCsv(team.token, latin1);
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({
      message: "El archivo debe estar codificado en UTF-8.",
      errors: { file: ["El archivo debe estar codificado en UTF-8."] },
    });

    const binary = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256);
    expect((await postCsv(team.token, binary)).status).toBe(422);

    const empty = await postCsv(team.token, "\ufeff\r\n\r\n");
    expect(empty.body).toEqual({ message: "El archivo está vacío.", errors: { file: ["El archivo está vacío."] } });

    const noNumber = await postCsv(team.token, "name,labels\nAna,VIP\n");
    expect(noNumber.status).toBe(422);
    expect(noNumber.body.errors.file).toEqual(["El archivo debe tener una columna number (o customer_number) en la primera línea."]);
    expect((await contactsOf(team.token)).size).toBe(0);
  });

  it("sets hostile rows aside without losing their neighbours: NUL bytes, a huge line, an unclosed quote", async () => {
    const team = await createTeam();
    const ns = [uniqueNumber(), uniqueNumber(), uniqueNumber(), uniqueNumber()];
    const csv = [
      "number,name",
      `${ns[0]},Bien`, // 2
      `${ns[1]},Mal\u0000nombre`, // 3
      `${ns[2]},${"x".repeat(200_000)}`, // 4
      `${ns[3]},Bien también`, // 5
      `573009999999,"sin cerrar`, // 6: swallows the rest of the file
      `573008888888,perdida`,
    ].join("\n");
    const res = await postCsv(team.token, csv);
    expect(res.status).toBe(200);
    expect(res.body.data.rejected).toEqual([
      { line: 3, reason: "La fila contiene caracteres no válidos." },
      { line: 4, reason: "La fila no se pudo leer (comillas sin cerrar o fila demasiado larga)." },
      { line: 6, reason: "La fila no se pudo leer (comillas sin cerrar o fila demasiado larga)." },
    ]);
    const stored = await contactsOf(team.token);
    expect([...stored.keys()].sort()).toEqual([ns[0], ns[3]].sort());
  });

  it("streams NDJSON progress per batch of 2,000 rows, then the final answer", async () => {
    const team = await createTeam();
    const rows = Array.from({ length: 4500 }, (_, i) => `57310${String(i).padStart(7, "0")},Cliente ${i}`);
    const res = await fetch(server.url + PATH, {
      method: "POST",
      headers: { authorization: `Bearer ${team.token}`, "content-type": "text/csv", accept: "application/x-ndjson" },
      body: ["number,name", ...rows, "bad,row"].join("\n"),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/x-ndjson");
    const lines = (await res.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    for (const l of lines) expect(importStreamLine.parse(l)).toEqual(l);
    expect(lines.slice(0, -1)).toEqual([
      { type: "progress", processed: 2000 },
      { type: "progress", processed: 4000 },
      { type: "progress", processed: 4501 },
    ]);
    expect(lines.at(-1)).toEqual({
      type: "done",
      message: "Importación terminada: 4500 contactos importados, 1 filas rechazadas.",
      data: {
        processed: 4501,
        created: 4500,
        updated: 0,
        rejected: [{ line: 4502, reason: "El número de teléfono no es válido." }],
        warnings: [],
      },
    });
    const api = apiClient(server.url, team.token);
    expect((await api.get("/api/v1/contacts?per_page=1")).body.pagination.total_items).toBe(4500);
  });
});
