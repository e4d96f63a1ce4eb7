import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createContact, createLabel, createTeam } from "../helpers/factories";
import { createLabel as createLabelService } from "@/lib/labels/service";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const PATH = "/api/v1/contacts/labels";
const dto = (l: { id: number; title: string; description: string | null; bgColor: string; textColor: string }) => ({
  id: l.id,
  title: l.title,
  description: l.description,
  bg_color: l.bgColor,
  text_color: l.textColor,
});
/** A label as the list shows it: the 2.2 record and how many contacts hold it. */
const listed = (l: Parameters<typeof dto>[0], contactsCount = 0) => ({ ...dto(l), contacts_count: contactsCount });
const counted = (l: object) => ({ ...l, contacts_count: 0 });

describe("GET /api/v1/contacts/labels", () => {
  it("lists only the caller's labels, ordered by id, in the 2.2 shape plus contacts_count, 20 per page by default", async () => {
    const team = await createTeam();
    const other = await createTeam();
    const mine = [];
    for (let i = 0; i < 22; i++) mine.push(await createLabel(team.id, { description: i % 2 ? `d${i}` : null }));
    await createLabel(other.id);
    const api = apiClient(server.url, team.token);

    const first = await api.get(PATH);
    expect(first.status).toBe(200);
    expect(typeof first.body.message).toBe("string");
    expect(first.body.data).toEqual(mine.slice(0, 20).map((l) => listed(l)));
    expect(Object.keys(first.body.data[0]).sort()).toEqual(["bg_color", "contacts_count", "description", "id", "text_color", "title"]);
    expect(first.body.pagination).toEqual({ total_items: 22, items_per_page: 20, current_page: 1, total_pages: 2 });

    const second = await api.get(`${PATH}?page=2&per_page=20`);
    expect(second.body.data).toEqual(mine.slice(20).map((l) => listed(l)));
    expect(second.body.pagination).toEqual({ total_items: 22, items_per_page: 20, current_page: 2, total_pages: 2 });

    const small = await api.get(`${PATH}?per_page=5&page=3`);
    expect(small.body.data.map((l: any) => l.id)).toEqual(mine.slice(10, 15).map((l) => l.id));
    expect(small.body.pagination).toEqual({ total_items: 22, items_per_page: 5, current_page: 3, total_pages: 5 });

    const beyond = await api.get(`${PATH}?page=9`);
    expect(beyond.status).toBe(200);
    expect(beyond.body.data).toEqual([]);
  });

  it("counts the contacts holding each label, per team and per page", async () => {
    const team = await createTeam();
    const other = await createTeam();
    const [a, b, none] = [await createLabel(team.id), await createLabel(team.id), await createLabel(team.id)];
    await createContact(team.id, { labelIds: [a.id, b.id] });
    await createContact(team.id, { labelIds: [a.id] });
    await createContact(team.id, { labelIds: [a.id] });
    await createContact(team.id);
    // Another team's contacts and labels never count.
    const theirs = await createLabel(other.id);
    await createContact(other.id, { labelIds: [theirs.id] });
    const api = apiClient(server.url, team.token);

    const res = await api.get(PATH);
    expect(res.body.data).toEqual([listed(a, 3), listed(b, 1), listed(none, 0)]);
    expect((await apiClient(server.url, other.token).get(PATH)).body.data).toEqual([listed(theirs, 1)]);

    // The count follows assignments made and undone through the API.
    const contact = await createContact(team.id);
    expect((await api.post(`/api/v1/contacts/${contact.id}/labels`, { label_ids: [none.id, b.id] })).status).toBe(200);
    expect((await api.get(PATH)).body.data.map((l: any) => l.contacts_count)).toEqual([3, 2, 1]);
    expect((await api.put(`/api/v1/contacts/${contact.id}/labels`, { label_ids: [b.id] })).status).toBe(200);
    expect((await api.get(PATH)).body.data.map((l: any) => l.contacts_count)).toEqual([3, 1, 1]);
    // Paged: each page counts its own labels.
    expect((await api.get(`${PATH}?per_page=1&page=2`)).body.data).toEqual([listed(b, 1)]);
  });

  it("answers the contract's exact 422 messages for non-numeric page/per_page and per_page above 20", async () => {
    const team = await createTeam();
    const api = apiClient(server.url, team.token);
    const notInt = "El parámetro page/per_page debe ser un número entero.";
    for (const q of ["page=abc", "per_page=abc", "page=1.5", "per_page=-3", "page="]) {
      const res = await api.get(`${PATH}?${q}`);
      expect(res.status, q).toBe(422);
      expect(res.body.message, q).toBe(notInt);
      expect(Object.values(res.body.errors).flat()).toContain(notInt);
    }
    const tooBig = await api.get(`${PATH}?per_page=21`);
    expect(tooBig.status).toBe(422);
    expect(tooBig.body).toEqual({
      message: "El campo per_page no puede ser mayor a la cantidad máxima permitida de 20.",
      errors: { per_page: ["El campo per_page no puede ser mayor a la cantidad máxima permitida de 20."] },
    });
    expect((await api.get(`${PATH}?per_page=20`)).status).toBe(200);
  });

  it("answers 401 without or with a wrong token", async () => {
    const none = await apiClient(server.url).get(PATH);
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ message: "Unauthenticated." });
    expect((await apiClient(server.url, "wam_nope").get(PATH)).status).toBe(401);
  });
});

describe("POST /api/v1/contacts/labels", () => {
  it("creates a label for the caller's team and lists it", async () => {
    const team = await createTeam();
    const api = apiClient(server.url, team.token);
    const res = await api.post(PATH, { title: "  VIP ", description: "Clientes top", bg_color: "#FFAA00", text_color: "#000000" });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      title: "VIP",
      description: "Clientes top",
      bg_color: "#ffaa00",
      text_color: "#000000",
    });
    const noDescription = await api.post(PATH, { title: "Nuevo", bg_color: "#111111", text_color: "#eeeeee" });
    expect(noDescription.status).toBe(201);
    expect(noDescription.body.data.description).toBeNull();
    const list = await api.get(PATH);
    expect(list.body.data).toEqual([res.body.data, noDescription.body.data].map(counted));
  });

  it("refuses a title already used in the team (any case), but not one used by another team", async () => {
    const team = await createTeam();
    const other = await createTeam();
    await createLabel(team.id, { title: "Pendiente" });
    await createLabel(other.id, { title: "Libre" });
    const api = apiClient(server.url, team.token);
    const dup = await api.post(PATH, { title: "pendiente", bg_color: "#111111", text_color: "#eeeeee" });
    expect(dup.status).toBe(422);
    expect(dup.body).toEqual({
      message: "Ya existe una etiqueta con ese título.",
      errors: { title: ["Ya existe una etiqueta con ese título."] },
    });
    expect((await api.post(PATH, { title: "Libre", bg_color: "#111111", text_color: "#eeeeee" })).status).toBe(201);
  });

  it("creates only one label when the same title is posted in parallel", async () => {
    const team = await createTeam();
    const api = apiClient(server.url, team.token);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => api.post(PATH, { title: "Carrera", bg_color: "#111111", text_color: "#eeeeee" })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 422, 422, 422, 422, 422, 422, 422]);
    expect((await api.get(PATH)).body.data.filter((l: any) => l.title === "Carrera")).toHaveLength(1);
  });

  it("validates every field with Spanish messages", async () => {
    const team = await createTeam();
    const api = apiClient(server.url, team.token);
    const ok = { title: "T", bg_color: "#111111", text_color: "#eeeeee" };
    const cases: [unknown, string, string][] = [
      [{ ...ok, title: undefined }, "title", "El campo title es obligatorio."],
      [{ ...ok, title: "   " }, "title", "El campo title no puede estar vacío."],
      [{ ...ok, title: "x".repeat(101) }, "title", "El campo title no puede tener más de 100 caracteres."],
      [{ ...ok, title: 5 }, "title", "El campo title debe ser una cadena de texto."],
      [{ ...ok, bg_color: "red" }, "bg_color", "El campo bg_color debe ser un color hexadecimal con el formato #rrggbb."],
      [{ ...ok, bg_color: undefined }, "bg_color", "El campo bg_color es obligatorio."],
      [{ ...ok, text_color: "#12345" }, "text_color", "El campo text_color debe ser un color hexadecimal con el formato #rrggbb."],
      [{ ...ok, description: 3 }, "description", "El campo description debe ser una cadena de texto."],
    ];
    for (const [body, field, message] of cases) {
      const res = await api.post(PATH, body);
      expect(res.status, message).toBe(422);
      expect(res.body.message).toBe(message);
      expect(res.body.errors[field]).toEqual([message]);
    }
    expect((await api.get(PATH)).body.data).toEqual([]);
  });

  it("answers 400 for malformed JSON, 415 without a JSON content type, 401 without a token", async () => {
    const team = await createTeam();
    const api = apiClient(server.url, team.token);
    const bad = await api.post(PATH, "{not json", { "content-type": "application/json" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("El cuerpo de la solicitud no es un JSON válido.");
    const wrongType = await api.post(PATH, "title=x", { "content-type": "application/x-www-form-urlencoded" });
    expect(wrongType.status).toBe(415);
    const anon = await apiClient(server.url).post(PATH, { title: "T", bg_color: "#111111", text_color: "#eeeeee" });
    expect(anon.status).toBe(401);
    expect((await api.get(PATH)).body.data).toEqual([]);
  });
});

describe("PATCH and DELETE /api/v1/contacts/labels/{labelId}", () => {
  it("renames and recolours any subset of fields", async () => {
    const team = await createTeam();
    const label = await createLabel(team.id, { title: "Antes", description: "x" });
    const api = apiClient(server.url, team.token);
    const renamed = await api.patch(`${PATH}/${label.id}`, { title: "Después" });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toEqual({ ...dto(label), title: "Después" });
    const recoloured = await api.patch(`${PATH}/${label.id}`, { bg_color: "#ABCDEF", description: null });
    expect(recoloured.body.data).toEqual({ ...dto(label), title: "Después", bg_color: "#abcdef", description: null });
    expect((await api.get(PATH)).body.data).toEqual([counted(recoloured.body.data)]);
    // Its own title again (another case) is not a duplicate.
    expect((await api.patch(`${PATH}/${label.id}`, { title: "DESPUÉS" })).status).toBe(200);
  });

  it("refuses an empty change, a duplicate title and bad colours", async () => {
    const team = await createTeam();
    const a = await createLabel(team.id, { title: "A" });
    await createLabel(team.id, { title: "B" });
    const api = apiClient(server.url, team.token);
    const empty = await api.patch(`${PATH}/${a.id}`, {});
    expect(empty.status).toBe(422);
    expect(empty.body.message).toBe("Debe indicar al menos un campo a modificar.");
    const dup = await api.patch(`${PATH}/${a.id}`, { title: "b" });
    expect(dup.status).toBe(422);
    expect(dup.body.message).toBe("Ya existe una etiqueta con ese título.");
    const color = await api.patch(`${PATH}/${a.id}`, { text_color: "blue" });
    expect(color.status).toBe(422);
    expect(color.body.errors.text_color).toEqual(["El campo text_color debe ser un color hexadecimal con el formato #rrggbb."]);
    expect((await api.get(PATH)).body.data[0]).toEqual(listed(a));
  });

  it("deletes a label and its assignments", async () => {
    const team = await createTeam();
    const keep = await createLabel(team.id);
    const gone = await createLabel(team.id);
    const contact = await createContact(team.id, { labelIds: [keep.id, gone.id] });
    const api = apiClient(server.url, team.token);
    const res = await api.delete(`${PATH}/${gone.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "Etiqueta eliminada correctamente." });
    expect((await api.get(PATH)).body.data).toEqual([listed(keep, 1)]);
    const contacts = await api.get(`/api/v1/contacts?search=${contact.customerId}`);
    expect(contacts.body.data[0].labels).toEqual([dto(keep)]);
    expect((await api.delete(`${PATH}/${gone.id}`)).status).toBe(404);
  });

  it("answers 404 for unknown, malformed and other teams' labels, changing nothing", async () => {
    const team = await createTeam();
    const other = await createTeam();
    const foreign = await createLabel(other.id, { title: "Ajena" });
    const api = apiClient(server.url, team.token);
    for (const id of [String(foreign.id), "999999999", "abc", "0", "99999999999"]) {
      const patch = await api.patch(`${PATH}/${id}`, { title: "Mía" });
      expect(patch.status, id).toBe(404);
      expect(patch.body).toEqual({ message: "Etiqueta no encontrada." });
      expect((await api.delete(`${PATH}/${id}`)).status, id).toBe(404);
    }
    const theirs = await apiClient(server.url, other.token).get(PATH);
    expect(theirs.body.data).toEqual([listed(foreign)]);
  });

  it("answers 401 without a token", async () => {
    const team = await createTeam();
    const label = await createLabel(team.id);
    const anon = apiClient(server.url);
    expect((await anon.patch(`${PATH}/${label.id}`, { title: "x" })).status).toBe(401);
    expect((await anon.delete(`${PATH}/${label.id}`)).status).toBe(401);
    expect((await apiClient(server.url, team.token).get(PATH)).body.data).toEqual([listed(label)]);
  });
});

describe("createLabel (service used by the admin CLI)", () => {
  it("validates its raw input and refuses duplicates like the API", async () => {
    const team = await createTeam();
    const ctx = { teamId: team.id, actor: { kind: "token" as const, tokenId: 0 } };
    const made = await createLabelService({ ctx, input: { title: "CLI", bg_color: "#00AA00", text_color: "#FFFFFF" } });
    expect(made).toEqual({ id: expect.any(Number), title: "CLI", description: null, bg_color: "#00aa00", text_color: "#ffffff" });
    await expect(createLabelService({ ctx, input: { title: "Otra", bg_color: "verde", text_color: "#ffffff" } })).rejects.toThrow(
      "El campo bg_color debe ser un color hexadecimal con el formato #rrggbb.",
    );
    await expect(createLabelService({ ctx, input: { title: "cli", bg_color: "#000000", text_color: "#ffffff" } })).rejects.toThrow(
      "Ya existe una etiqueta con ese título.",
    );
    expect((await apiClient(server.url, team.token).get(PATH)).body.data).toEqual([counted(made)]);
  });
});
