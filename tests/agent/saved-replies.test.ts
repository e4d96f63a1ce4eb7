import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createTeam } from "../helpers/factories";
import { agentSession } from "../helpers/send-factories";
import { SHORTCUT_FORMAT, SHORTCUT_TAKEN } from "@/lib/saved-replies/schemas";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const horario = { shortcut: "Horario", title: "Horario de atención", content: "Hola {{name}}, abrimos de 8 a 18 h. Le atendió {{agent}}." };

describe("/api/v1/saved-replies", () => {
  it("needs a token or a session on every route", async () => {
    const anon = apiClient(server.url);
    expect((await anon.get("/api/v1/saved-replies")).status).toBe(401);
    expect((await anon.post("/api/v1/saved-replies", horario)).status).toBe(401);
    expect((await anon.get("/api/v1/saved-replies/1")).status).toBe(401);
    expect((await anon.patch("/api/v1/saved-replies/1", { title: "x" })).status).toBe(401);
    const del = await anon.delete("/api/v1/saved-replies/1");
    expect(del.status).toBe(401);
    expect(del.body).toEqual({ message: "Unauthenticated." });
  });

  it("creates, lists by shortcut, searches, reads, edits and deletes; the shortcut is stored in lower case", async () => {
    const team = await createTeam();
    const api = apiClient(server.url, team.token);
    const created = await api.post("/api/v1/saved-replies", horario);
    expect(created.status).toBe(201);
    expect(created.body.message).toBe("Respuesta guardada creada correctamente.");
    expect(created.body.data).toMatchObject({ shortcut: "horario", title: "Horario de atención", content: horario.content });
    const id = created.body.data.id;
    await api.post("/api/v1/saved-replies", { shortcut: "envio", title: "Envíos", content: "Enviamos a todo el país en 48 h." });

    const list = await api.get("/api/v1/saved-replies");
    expect(list.status).toBe(200);
    expect(list.body.data.map((r: { shortcut: string }) => r.shortcut)).toEqual(["envio", "horario"]);
    expect(list.body.pagination).toEqual({ total_items: 2, items_per_page: 100, current_page: 1, total_pages: 1 });
    // Accents and case ignored, over shortcut, title and content.
    const found = await api.get("/api/v1/saved-replies?search=ENVIO");
    expect(found.body.data.map((r: { shortcut: string }) => r.shortcut)).toEqual(["envio"]);
    expect((await api.get("/api/v1/saved-replies?search=pais")).body.data).toHaveLength(1);
    expect((await api.get("/api/v1/saved-replies?search=nada-parecido")).body.data).toEqual([]);

    expect((await api.get(`/api/v1/saved-replies/${id}`)).body.data.shortcut).toBe("horario");
    const edited = await api.patch(`/api/v1/saved-replies/${id}`, { title: "Horario (diciembre)", shortcut: "horario-dic" });
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ shortcut: "horario-dic", title: "Horario (diciembre)", content: horario.content });
    expect(new Date(edited.body.data.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(edited.body.data.created_at).getTime());

    const gone = await api.delete(`/api/v1/saved-replies/${id}`);
    expect(gone.body).toEqual({ message: "Respuesta guardada eliminada correctamente." });
    expect((await api.get(`/api/v1/saved-replies/${id}`)).status).toBe(404);
    expect((await api.delete(`/api/v1/saved-replies/${id}`)).status).toBe(404);
  });

  it("refuses a shortcut the team already has (any case), and malformed fields, with the exact texts", async () => {
    const team = await createTeam();
    const api = apiClient(server.url, team.token);
    expect((await api.post("/api/v1/saved-replies", horario)).status).toBe(201);
    const dup = await api.post("/api/v1/saved-replies", { ...horario, shortcut: "HORARIO" });
    expect(dup.status).toBe(422);
    expect(dup.body).toEqual({ message: SHORTCUT_TAKEN, errors: { shortcut: [SHORTCUT_TAKEN] } });
    expect(SHORTCUT_TAKEN).toBe("Ya existe una respuesta guardada con ese atajo.");

    const other = await api.post("/api/v1/saved-replies", { shortcut: "otro", title: "Otro", content: "…" });
    const rename = await api.patch(`/api/v1/saved-replies/${other.body.data.id}`, { shortcut: "Horario" });
    expect(rename.status).toBe(422);
    expect(rename.body.errors.shortcut).toEqual([SHORTCUT_TAKEN]);
    // Renaming to its own shortcut is no conflict.
    expect((await api.patch(`/api/v1/saved-replies/${other.body.data.id}`, { shortcut: "OTRO" })).status).toBe(200);

    const spaced = await api.post("/api/v1/saved-replies", { ...horario, shortcut: "/con espacio" });
    expect(spaced.status).toBe(422);
    expect(spaced.body.message).toBe(SHORTCUT_FORMAT);
    const empty = await api.post("/api/v1/saved-replies", { shortcut: "vacio", title: "  ", content: "   " });
    expect(empty.body.errors).toEqual({ title: ["El campo title es obligatorio."], content: ["El campo content es obligatorio."] });
    const long = await api.post("/api/v1/saved-replies", { shortcut: "largo", title: "Largo", content: "x".repeat(4097) });
    expect(long.body.message).toBe("El campo content no puede tener más de 4096 caracteres.");
    const nothing = await api.patch(`/api/v1/saved-replies/${other.body.data.id}`, {});
    expect(nothing.body.message).toBe("Debe indicar al menos un campo a modificar.");
    expect((await api.get("/api/v1/saved-replies/abc")).status).toBe(404);
  });

  it("is team-wide: another team neither sees nor changes them, and may use the same shortcut", async () => {
    const mine = await createTeam();
    const theirs = await createTeam();
    const api = apiClient(server.url, mine.token);
    const foreign = apiClient(server.url, theirs.token);
    const id = (await api.post("/api/v1/saved-replies", horario)).body.data.id;

    expect((await foreign.get("/api/v1/saved-replies")).body.data).toEqual([]);
    const read = await foreign.get(`/api/v1/saved-replies/${id}`);
    expect(read.status).toBe(404);
    expect(read.body).toEqual({ message: "Respuesta guardada no encontrada." });
    expect((await foreign.patch(`/api/v1/saved-replies/${id}`, { title: "Mío" })).status).toBe(404);
    expect((await foreign.delete(`/api/v1/saved-replies/${id}`)).status).toBe(404);
    expect((await api.get(`/api/v1/saved-replies/${id}`)).body.data.title).toBe(horario.title);
    expect((await foreign.post("/api/v1/saved-replies", horario)).status).toBe(201);
  });

  it("is shared by the team's agents through their sessions", async () => {
    const team = await createTeam();
    const a = await agentSession(team.id);
    const b = await agentSession(team.id);
    const created = await apiClient(server.url).post("/api/v1/saved-replies", horario, a.headers);
    expect(created.status).toBe(201);
    const seen = await apiClient(server.url).get("/api/v1/saved-replies", b.headers);
    expect(seen.body.data.map((r: { id: number }) => r.id)).toEqual([created.body.data.id]);
  });
});
