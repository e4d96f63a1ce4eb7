import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createContact, createLabel, createTeam } from "../helpers/factories";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const REQUIRED = "Debe indicar al menos una etiqueta.";
const NOT_FOUND = "Etiqueta no encontrada.";
const CAP = "El contacto no puede tener más de 5 etiquetas.";
const NOT_ASSIGNED = "La etiqueta no está asignada al contacto.";

const dto = (l: { id: number; title: string; description: string | null; bgColor: string; textColor: string }) => ({
  id: l.id,
  title: l.title,
  description: l.description,
  bg_color: l.bgColor,
  text_color: l.textColor,
});

async function setup(labelCount: number, assigned = 0) {
  const team = await createTeam();
  const labels = [];
  for (let i = 0; i < labelCount; i++) labels.push(await createLabel(team.id));
  const contact = await createContact(team.id, { labelIds: labels.slice(0, assigned).map((l) => l.id) });
  const api = apiClient(server.url, team.token);
  const path = `/api/v1/contacts/${contact.id}/labels`;
  const labelsNow = async () =>
    (await api.get(`/api/v1/contacts?search=${contact.customerId}`)).body.data[0].labels as ReturnType<typeof dto>[];
  return { team, labels, contact, api, path, labelsNow };
}

function expect422(res: { status: number; body: any }, message: string) {
  expect(res.status, message).toBe(422);
  expect(res.body).toEqual({ message, errors: { label_ids: [message] } });
}

describe("POST /api/v1/contacts/{contactId}/labels", () => {
  it("adds cumulatively, keeps existing labels, answers the labels ordered by id", async () => {
    const { labels, api, path, labelsNow } = await setup(4, 1);
    const res = await api.post(path, { label_ids: [labels[3].id, labels[2].id] });
    expect(res.status).toBe(200);
    expect(typeof res.body.message).toBe("string");
    expect(res.body.data).toEqual([labels[0], labels[2], labels[3]].map(dto));
    expect(await labelsNow()).toEqual(res.body.data);
  });

  it("treats already-assigned labels as no error and no duplicate, counting them once toward the cap", async () => {
    const { labels, api, path, labelsNow } = await setup(6, 4);
    const again = await api.post(path, { label_ids: [labels[0].id, labels[1].id] });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(labels.slice(0, 4).map(dto));
    // 4 assigned + 1 new + 2 already there = 5 distinct: allowed.
    const fifth = await api.post(path, { label_ids: [labels[4].id, labels[0].id, labels[3].id] });
    expect(fifth.status).toBe(200);
    expect(fifth.body.data).toEqual(labels.slice(0, 5).map(dto));
    const sameAgain = await api.post(path, { label_ids: [labels[4].id] });
    expect(sameAgain.status).toBe(200);
    expect(await labelsNow()).toEqual(labels.slice(0, 5).map(dto));
  });

  it(`refuses going past 5 labels: "${CAP}", adding none of the batch`, async () => {
    const { labels, api, path, labelsNow } = await setup(7, 3);
    expect422(await api.post(path, { label_ids: [labels[3].id, labels[4].id, labels[5].id] }), CAP);
    expect(await labelsNow()).toEqual(labels.slice(0, 3).map(dto));
    expect((await api.post(path, { label_ids: [labels[3].id, labels[4].id] })).status).toBe(200);
    expect422(await api.post(path, { label_ids: [labels[6].id] }), CAP);
    expect(await labelsNow()).toEqual(labels.slice(0, 5).map(dto));
  });

  it(`answers "${REQUIRED}" for empty, absent or null label_ids`, async () => {
    const { api, path } = await setup(1);
    for (const body of [{ label_ids: [] }, {}, { label_ids: null }]) expect422(await api.post(path, body), REQUIRED);
  });

  it(`answers "${NOT_FOUND}" for a nonexistent label or another team's, adding none of the batch`, async () => {
    const { labels, api, path, labelsNow } = await setup(2);
    const other = await createTeam();
    const foreign = await createLabel(other.id);
    expect422(await api.post(path, { label_ids: [labels[0].id, foreign.id] }), NOT_FOUND);
    expect422(await api.post(path, { label_ids: [labels[1].id, 2147483000] }), NOT_FOUND);
    expect422(await api.post(path, { label_ids: [99999999999] }), NOT_FOUND);
    expect(await labelsNow()).toEqual([]);
  });

  it("refuses repeated ids, wrong types and huge arrays with 422", async () => {
    const { labels, api, path, labelsNow } = await setup(1);
    expect422(await api.post(path, { label_ids: [labels[0].id, labels[0].id] }), "Las etiquetas no pueden repetirse.");
    expect422(await api.post(path, { label_ids: "1" }), "El campo label_ids debe ser una lista.");
    for (const bad of ["1", 1.5, 0, -2, null, { id: 1 }]) {
      const res = await api.post(path, { label_ids: [bad] });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe("Cada etiqueta debe indicarse con un número entero positivo.");
      expect(res.body.errors["label_ids.0"]).toEqual(["Cada etiqueta debe indicarse con un número entero positivo."]);
    }
    const huge = await api.post(path, { label_ids: Array.from({ length: 10_000 }, (_, i) => i + 1) });
    expect422(huge, "No puede indicar más de 100 etiquetas por solicitud.");
    const hugeJunk = await api.post(path, { label_ids: Array.from({ length: 10_000 }, () => "x") });
    expect422(hugeJunk, "No puede indicar más de 100 etiquetas por solicitud.");
    expect(await labelsNow()).toEqual([]);
  });

  it("answers 400 for malformed JSON, 415 for another content type", async () => {
    const { api, path } = await setup(1);
    const bad = await api.post(path, '{"label_ids": [1', { "content-type": "application/json" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("El cuerpo de la solicitud no es un JSON válido.");
    const notObject = await api.post(path, "[1,2]", { "content-type": "application/json" });
    expect(notObject.status).toBe(400);
    expect((await api.post(path, "label_ids=1", { "content-type": "text/plain" })).status).toBe(415);
  });

  it("answers 404 for unknown, malformed and other teams' contacts, touching nothing", async () => {
    const { labels, api } = await setup(1);
    const other = await createTeam();
    const otherLabel = await createLabel(other.id);
    const foreign = await createContact(other.id, { labelIds: [otherLabel.id] });
    for (const id of [String(foreign.id), "2147483647", "abc", "-1"]) {
      const res = await api.post(`/api/v1/contacts/${id}/labels`, { label_ids: [labels[0].id] });
      expect(res.status, id).toBe(404);
      expect(res.body).toEqual({ message: "Contacto no encontrado." });
    }
    // Even with the other team's own label ids, the foreign contact is invisible.
    const withTheirLabel = await api.post(`/api/v1/contacts/${foreign.id}/labels`, { label_ids: [otherLabel.id] });
    expect(withTheirLabel.status).toBe(404);
    const theirs = await apiClient(server.url, other.token).get(`/api/v1/contacts?search=${foreign.customerId}`);
    expect(theirs.body.data[0].labels).toEqual([dto(otherLabel)]);
  });

  it("answers 401 without a token", async () => {
    const { labels, path, labelsNow } = await setup(1);
    const res = await apiClient(server.url).post(path, { label_ids: [labels[0].id] });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Unauthenticated." });
    expect(await labelsNow()).toEqual([]);
  });

  it("holds the 5-label cap under 20 parallel requests: exactly 5 succeed, 15 get the cap message", async () => {
    const { labels, api, path, labelsNow } = await setup(20);
    const results = await Promise.all(labels.map((l) => api.post(path, { label_ids: [l.id] })));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const r of refused) expect422(r, CAP);
    const final = await labelsNow();
    expect(final).toHaveLength(5);
    const winners = labels.filter((_, i) => results[i].status === 200).map(dto);
    expect(final).toEqual(winners);
  });
});

describe("PUT /api/v1/contacts/{contactId}/labels", () => {
  it("removes only the given labels and answers those left", async () => {
    const { labels, api, path, labelsNow } = await setup(4, 4);
    const res = await api.put(path, { label_ids: [labels[2].id, labels[0].id] });
    expect(res.status).toBe(200);
    expect(typeof res.body.message).toBe("string");
    expect(res.body.data).toEqual([labels[1], labels[3]].map(dto));
    expect(await labelsNow()).toEqual(res.body.data);
    const rest = await api.put(path, { label_ids: [labels[1].id, labels[3].id] });
    expect(rest.body.data).toEqual([]);
  });

  it(`answers "${NOT_ASSIGNED}" for a label not on the contact, removing nothing`, async () => {
    const { labels, api, path, labelsNow } = await setup(3, 2);
    expect422(await api.put(path, { label_ids: [labels[0].id, labels[2].id] }), NOT_ASSIGNED);
    expect(await labelsNow()).toEqual(labels.slice(0, 2).map(dto));
  });

  it(`answers "${NOT_FOUND}" for a nonexistent or foreign label, removing nothing`, async () => {
    const { labels, api, path, labelsNow } = await setup(2, 2);
    const other = await createTeam();
    const foreign = await createLabel(other.id);
    expect422(await api.put(path, { label_ids: [labels[0].id, foreign.id] }), NOT_FOUND);
    expect422(await api.put(path, { label_ids: [labels[1].id, 2147483000] }), NOT_FOUND);
    expect(await labelsNow()).toEqual(labels.map(dto));
  });

  it(`answers "${REQUIRED}" for empty or absent label_ids, and refuses repeats and huge arrays`, async () => {
    const { labels, api, path, labelsNow } = await setup(1, 1);
    expect422(await api.put(path, { label_ids: [] }), REQUIRED);
    expect422(await api.put(path, {}), REQUIRED);
    expect422(await api.put(path, { label_ids: [labels[0].id, labels[0].id] }), "Las etiquetas no pueden repetirse.");
    expect422(
      await api.put(path, { label_ids: Array.from({ length: 10_000 }, (_, i) => i + 1) }),
      "No puede indicar más de 100 etiquetas por solicitud.",
    );
    expect((await api.put(path, "nope", { "content-type": "application/json" })).status).toBe(400);
    expect((await api.put(path, "nope", { "content-type": "text/plain" })).status).toBe(415);
    expect(await labelsNow()).toEqual([dto(labels[0])]);
  });

  it("answers 404 for another team's contact and 401 without a token", async () => {
    const { labels, contact, path, labelsNow } = await setup(1, 1);
    const other = await createTeam();
    const otherApi = apiClient(server.url, other.token);
    const foreign = await otherApi.put(path, { label_ids: [labels[0].id] });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: "Contacto no encontrado." });
    expect((await otherApi.put(`/api/v1/contacts/${contact.id + 1_000_000}/labels`, { label_ids: [1] })).status).toBe(404);
    const anon = await apiClient(server.url).put(path, { label_ids: [labels[0].id] });
    expect(anon.status).toBe(401);
    expect(await labelsNow()).toEqual([dto(labels[0])]);
  });
});
