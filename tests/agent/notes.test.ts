import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { openSse, seenBeforeMarker, streamOpened, type SseStream } from "../helpers/sse";
import { createContact, createTeam } from "../helpers/factories";
import { createSandboxNumber } from "../helpers/delivery-factories";
import { agentSession } from "../helpers/send-factories";
import { getDb } from "@/db/client";
import { messages } from "@/db/schema";

let server: TestServer;
const streams: SseStream[] = [];
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  streams.forEach((s) => s.close());
  await server.close();
});

/** A team with a sandbox number and one conversation (a customer wrote), and two agents signed in. */
async function world() {
  const team = await createTeam();
  const number = await createSandboxNumber(team.id);
  const api = apiClient(server.url, team.token);
  const contact = await createContact(team.id, { name: "Ana Pérez" });
  const res = await api.post("/api/v1/sandbox/inbound", {
    wa_number: number.number,
    from: contact.customerNumber,
    type: "text",
    payload: { text: "Hola" },
  });
  expect(res.status).toBe(200);
  const conv = (await api.get("/api/v1/conversations")).body.data[0];
  const ana = await agentSession(team.id);
  const luis = await agentSession(team.id);
  return { team, number, api, contact, conv, ana, luis };
}

describe("/api/v1/conversations/{id}/notes", () => {
  it("needs a token or a session", async () => {
    const anon = apiClient(server.url);
    expect((await anon.get("/api/v1/conversations/1/notes")).status).toBe(401);
    const post = await anon.post("/api/v1/conversations/1/notes", { body: "x" });
    expect(post.status).toBe(401);
    expect(post.body).toEqual({ message: "Unauthenticated." });
  });

  it("stores a note signed by its agent and lists the conversation's notes oldest first", async () => {
    const w = await world();
    const agentApi = apiClient(server.url);
    const first = await agentApi.post(
      `/api/v1/conversations/${w.conv.id}/notes`,
      { body: "Cliente VIP: ofrecer envío gratis." },
      w.ana.headers,
    );
    expect(first.status).toBe(201);
    expect(first.body.message).toBe("Nota creada correctamente.");
    expect(first.body.data).toMatchObject({
      conversation_id: w.conv.id,
      wa_number: w.number.number,
      contact_id: w.contact.id,
      agent_id: w.ana.agent.id,
      agent_name: w.ana.agent.name,
      body: "Cliente VIP: ofrecer envío gratis.",
    });
    await agentApi.post(`/api/v1/conversations/${w.conv.id}/notes`, { body: "Ya le escribí por correo." }, w.luis.headers);
    // With a token there is no agent: the note is unsigned.
    const byToken = await w.api.post(`/api/v1/conversations/${w.conv.id}/notes`, { body: "Desde el CRM" });
    expect(byToken.body.data).toMatchObject({ agent_id: null, agent_name: null });

    const list = await w.api.get(`/api/v1/conversations/${w.conv.id}/notes`);
    expect(list.status).toBe(200);
    expect(list.body.message).toBe("Notas obtenidas correctamente.");
    expect(list.body.data.map((n: { body: string; agent_name: string | null }) => [n.body, n.agent_name])).toEqual([
      ["Cliente VIP: ofrecer envío gratis.", w.ana.agent.name],
      ["Ya le escribí por correo.", w.luis.agent.name],
      ["Desde el CRM", null],
    ]);
  });

  it("is never a message: nothing is sent, nothing enters the history or the conversation's last message", async () => {
    const w = await world();
    const db = await getDb();
    const before = await db.select({ id: messages.id }).from(messages).where(eq(messages.teamId, w.team.id));
    await apiClient(server.url).post(`/api/v1/conversations/${w.conv.id}/notes`, { body: "Nota secreta 123" }, w.ana.headers);
    const after = await db.select({ id: messages.id }).from(messages).where(eq(messages.teamId, w.team.id));
    expect(after).toEqual(before);
    const today = new Date().toISOString().slice(0, 10);
    const history = await w.api.get(
      `/api/v1/messages/whatsapp/history?wa_number=${w.number.number}&customer_source=${w.contact.customerNumber}&from_date=${today}&to_date=${today}`,
    );
    expect(history.status).toBe(200);
    expect(history.body.data).toHaveLength(1);
    expect(history.text).not.toContain("Nota secreta 123");
    const conv = (await w.api.get(`/api/v1/conversations/${w.conv.id}`)).body.data;
    expect(conv.last_message.preview).toBe("Hola");
  });

  it("streams note.created to the team's other agents", async () => {
    const w = await world();
    const s = await openSse(`${server.url}/api/v1/events`, w.luis.headers);
    streams.push(s);
    expect(s.status).toBe(200);
    await streamOpened(s);
    const created = await apiClient(server.url).post(
      `/api/v1/conversations/${w.conv.id}/notes`,
      { body: "Ojo: pidió factura" },
      w.ana.headers,
    );
    const ev = await s.next((e) => e.event === "note.created");
    expect(JSON.parse(ev.data)).toEqual(created.body.data);
  });

  it("refuses an empty or too long body with the exact texts", async () => {
    const w = await world();
    const empty = await w.api.post(`/api/v1/conversations/${w.conv.id}/notes`, { body: "   " });
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual({ message: "El campo body es obligatorio.", errors: { body: ["El campo body es obligatorio."] } });
    const long = await w.api.post(`/api/v1/conversations/${w.conv.id}/notes`, { body: "x".repeat(4097) });
    expect(long.body.message).toBe("El campo body no puede tener más de 4096 caracteres.");
    expect((await w.api.get(`/api/v1/conversations/${w.conv.id}/notes`)).body.data).toEqual([]);
    expect((await w.api.get("/api/v1/conversations/abc/notes")).status).toBe(404);
  });

  it("another team can neither read nor write a conversation's notes, nor hear them", async () => {
    const w = await world();
    const other = await createTeam();
    const foreign = apiClient(server.url, other.token);
    const s = await openSse(`${server.url}/api/v1/events`, { authorization: `Bearer ${other.token}` });
    streams.push(s);
    await w.api.post(`/api/v1/conversations/${w.conv.id}/notes`, { body: "Solo para nosotros" });

    const read = await foreign.get(`/api/v1/conversations/${w.conv.id}/notes`);
    expect(read.status).toBe(404);
    expect(read.body).toEqual({ message: "Conversación no encontrada." });
    const write = await foreign.post(`/api/v1/conversations/${w.conv.id}/notes`, { body: "intruso" });
    expect(write.status).toBe(404);
    const foreignAgent = await agentSession(other.id);
    expect((await apiClient(server.url).get(`/api/v1/conversations/${w.conv.id}/notes`, foreignAgent.headers)).status).toBe(404);
    // Everything of its team's log up to a later marker has reached the other team's stream: no note.
    expect((await seenBeforeMarker(s, server.url, other)).filter((e) => e.event === "note.created")).toEqual([]);
    expect((await w.api.get(`/api/v1/conversations/${w.conv.id}/notes`)).body.data.map((n: { body: string }) => n.body)).toEqual([
      "Solo para nosotros",
    ]);
  });
});
