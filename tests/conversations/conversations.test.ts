import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { openSse, seenBeforeMarker, streamOpened, type SseStream } from "../helpers/sse";
import { createContact, createLabel, createTeam, createTemplate } from "../helpers/factories";
import { createSandboxNumber } from "../helpers/delivery-factories";
import { insertMessages } from "../helpers/history-factories";
import { agentSession } from "../helpers/send-factories";
import { getDb } from "@/db/client";
import { messages } from "@/db/schema";
import { eq } from "drizzle-orm";

let server: TestServer;
const streams: SseStream[] = [];
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  streams.forEach((s) => s.close());
  await server.close();
});

async function world() {
  const team = await createTeam();
  const number = await createSandboxNumber(team.id);
  const template = await createTemplate(team.id);
  const api = apiClient(server.url, team.token);
  const inbound = (from: string, text: string) =>
    api.post("/api/v1/sandbox/inbound", { wa_number: number.number, from, type: "text", payload: { text } });
  const send = (destination: string) =>
    api.post("/api/v1/message_templates/send", {
      wa_number: number.number,
      destination,
      template_name: template.name,
      header_param: { key: "1", value: "Ana" },
      body_params: [
        { key: "1", value: "A-1" },
        { key: "2", value: "lunes" },
      ],
    });
  return { team, number, template, api, inbound, send };
}

const list = (api: ReturnType<typeof apiClient>, query = "") => api.get(`/api/v1/conversations${query}`);

describe("GET /api/v1/conversations", () => {
  it("needs a token or a session", async () => {
    expect((await apiClient(server.url).get("/api/v1/conversations")).status).toBe(401);
  });

  it("lists each conversation once, newest activity first, with its last message, unread count and 24-hour window", async () => {
    const w = await world();
    const ana = await createContact(w.team.id, { name: "Ana Pérez" });
    const luis = await createContact(w.team.id, { name: "Luis Gómez" });
    expect((await w.send(ana.customerNumber!)).status).toBe(200);
    expect((await w.inbound(luis.customerNumber!, "¿Tienen envío a Cali?")).status).toBe(200);
    expect((await w.inbound(luis.customerNumber!, "Gracias")).status).toBe(200);

    const res = await list(w.api);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Conversaciones obtenidas correctamente.");
    expect(res.body.next_cursor).toBeNull();
    const [first, second] = res.body.data;
    expect(res.body.data).toHaveLength(2);
    expect(first.contact).toMatchObject({ id: luis.id, name: "Luis Gómez", customer_number: luis.customerNumber, labels: [] });
    expect(first.wa_number).toBe(w.number.number);
    expect(first.last_message).toMatchObject({
      type: "text",
      direction: "INBOUND",
      sender: "CUSTOMER",
      status: "RECEIVED",
      preview: "Gracias",
    });
    expect(first.unread_count).toBe(2);
    expect(first.status).toBe("open");
    expect(first.assignee_agent_id).toBeNull();
    expect(new Date(first.window_expires_at).getTime() - new Date(first.last_inbound_at).getTime()).toBe(24 * 3600_000);

    expect(second.contact.id).toBe(ana.id);
    expect(second.last_message).toMatchObject({ type: "template", direction: "OUTBOUND", status: "QUEUED" });
    expect(second.last_message.preview).toContain("A-1");
    expect(second.unread_count).toBe(0);
    expect(second.last_inbound_at).toBeNull();
    expect(second.window_expires_at).toBeNull();
  });

  it("filters by needs_reply, unread, label, search (accents and case ignored) and number", async () => {
    const w = await world();
    const vip = await createLabel(w.team.id, { title: "VIP" });
    const maria = await createContact(w.team.id, { name: "María López", labelIds: [vip.id] });
    const pedro = await createContact(w.team.id, { name: "Pedro Ruiz" });
    await w.inbound(maria.customerNumber!, "hola");
    await w.inbound(pedro.customerNumber!, "hola");
    await w.send(pedro.customerNumber!);

    const ids = async (q: string) => (await list(w.api, q)).body.data.map((c: { contact: { id: number } }) => c.contact.id);
    expect(await ids("?needs_reply=1")).toEqual([maria.id]);
    expect(await ids("?unread=1")).toEqual([pedro.id, maria.id]);
    expect(await ids(`?label_id=${vip.id}`)).toEqual([maria.id]);
    // Each item carries its contact's labels as the contacts API shows them (2.2).
    const [withLabel] = (await list(w.api, `?label_id=${vip.id}`)).body.data;
    expect(withLabel.contact.labels).toEqual([
      { id: vip.id, title: "VIP", description: vip.description, bg_color: vip.bgColor, text_color: vip.textColor },
    ]);
    // The same page twice (the second from the statement built by the first) and past a cursor.
    expect(await ids("?needs_reply=1")).toEqual([maria.id]);
    const firstPage = (await list(w.api, "?unread=1&per_page=1")).body;
    expect(await ids(`?unread=1&per_page=1&cursor=${firstPage.next_cursor}`)).toEqual([maria.id]);
    // A label that is not the team's is the same 422 as on /api/v1/contacts.
    const other = await createTeam();
    const theirs = await createLabel(other.id, { title: "Ajena" });
    for (const q of [`?label_id=999999&label_id=${vip.id}`, `?label_id=${theirs.id}`, "?label_id=9999999999"]) {
      const res = await list(w.api, q);
      expect(res.status, q).toBe(422);
      expect(res.body, q).toEqual({ message: "Etiqueta no encontrada.", errors: { label_id: ["Etiqueta no encontrada."] } });
      const contacts = await w.api.get(`/api/v1/contacts${q}`);
      expect({ status: contacts.status, body: contacts.body }, q).toEqual({ status: res.status, body: res.body });
    }
    expect(await ids("?search=MARIA")).toEqual([maria.id]);
    expect(await ids(`?search=${pedro.customerNumber!.slice(-6)}`)).toEqual([pedro.id]);
    expect(await ids(`?wa_number=${w.number.number}`)).toHaveLength(2);

    const bad = await list(w.api, "?needs_reply=yes");
    expect(bad.status).toBe(422);
    expect(bad.body.errors.needs_reply).toEqual(["Debe ser 0 o 1."]);
    const tooMany = await list(w.api, "?per_page=101");
    expect(tooMany.body.message).toBe("El campo per_page no puede ser mayor a la cantidad máxima permitida de 100.");
  });

  it("pages with an opaque cursor and refuses a forged one", async () => {
    const w = await world();
    for (let i = 0; i < 5; i++) await w.inbound((await createContact(w.team.id)).customerNumber!, `m${i}`);
    const seen: number[] = [];
    let cursor = "";
    for (let pages = 0; pages < 10; pages++) {
      const res = await list(w.api, `?per_page=2${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...res.body.data.map((c: { id: number }) => c.id));
      if (!res.body.next_cursor) break;
      cursor = res.body.next_cursor;
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    const forged = await list(w.api, "?cursor=bm90LWpzb24");
    expect(forged.status).toBe(422);
    expect(forged.body).toEqual({ message: "El cursor no es válido.", errors: { cursor: ["El cursor no es válido."] } });
  });

  it("never shows another team's conversations, nor lets it read or change them", async () => {
    const w = await world();
    const c = await createContact(w.team.id);
    await w.inbound(c.customerNumber!, "privado");
    const id = (await list(w.api)).body.data[0].id;
    const stranger = apiClient(server.url, (await createTeam()).token);
    expect((await list(stranger)).body.data).toEqual([]);
    expect((await stranger.get(`/api/v1/conversations/${id}`)).status).toBe(404);
    expect((await stranger.post(`/api/v1/conversations/${id}/read`)).status).toBe(404);
    expect((await stranger.patch(`/api/v1/conversations/${id}`, { status: "resolved" })).status).toBe(404);
    expect((await w.api.get(`/api/v1/conversations/${id}`)).body.data.unread_count).toBe(1);
  });
});

describe("reading, assigning and resolving", () => {
  it("read sets unread to 0 and streams conversation.read; a new customer message counts again", async () => {
    const w = await world();
    const c = await createContact(w.team.id);
    await w.inbound(c.customerNumber!, "uno");
    const conv = (await list(w.api)).body.data[0];
    const s = await openSse(`${server.url}/api/v1/events`, { authorization: `Bearer ${w.team.token}` });
    streams.push(s);
    await streamOpened(s);

    const read = await w.api.post(`/api/v1/conversations/${conv.id}/read`);
    expect(read.status).toBe(200);
    expect(read.body.data.unread_count).toBe(0);
    expect(JSON.parse((await s.next((e) => e.event === "conversation.read")).data)).toEqual({ id: conv.id, unread_count: 0 });

    await w.inbound(c.customerNumber!, "dos");
    const created = JSON.parse((await s.next((e) => e.event === "message.created")).data);
    expect(created).toMatchObject({ wa_number: w.number.number, contact_id: c.id, direction: "INBOUND", type: "text", status: "RECEIVED" });
    expect((await w.api.get(`/api/v1/conversations/${conv.id}`)).body.data.unread_count).toBe(1);
  });

  it("assigns to an agent of the team, resolves, and a customer message reopens it", async () => {
    const w = await world();
    const c = await createContact(w.team.id);
    await w.inbound(c.customerNumber!, "hola");
    const conv = (await list(w.api)).body.data[0];
    const { agent, headers } = await agentSession(w.team.id);

    const take = await w.api.patch(`/api/v1/conversations/${conv.id}`, { assignee_agent_id: agent.id, status: "resolved" });
    expect(take.status).toBe(200);
    expect(take.body.data).toMatchObject({ assignee_agent_id: agent.id, status: "resolved" });
    const mine = await apiClient(server.url).get("/api/v1/conversations?assignee=me", headers);
    expect(mine.body.data.map((x: { id: number }) => x.id)).toEqual([conv.id]);
    expect((await list(w.api, "?assignee=none")).body.data).toEqual([]);
    expect((await list(w.api, "?status=resolved")).body.data).toHaveLength(1);

    await w.inbound(c.customerNumber!, "otra pregunta");
    expect((await w.api.get(`/api/v1/conversations/${conv.id}`)).body.data.status).toBe("open");

    const foreignAgent = await agentSession((await createTeam()).id);
    const bad = await w.api.patch(`/api/v1/conversations/${conv.id}`, { assignee_agent_id: foreignAgent.agent.id });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.assignee_agent_id).toEqual(["El agente indicado no existe."]);
    // Beyond the integer column: the same 422, not a database error.
    const huge = await w.api.patch(`/api/v1/conversations/${conv.id}`, { assignee_agent_id: 2147483648 });
    expect(huge.status).toBe(422);
    expect(huge.body.errors.assignee_agent_id).toEqual(["El agente indicado no existe."]);
    for (const id of [2 ** 53, 1e300, -1, 1.5]) {
      const bad = await w.api.patch(`/api/v1/conversations/${conv.id}`, { assignee_agent_id: id });
      expect(bad.status, String(id)).toBe(422);
      expect(bad.body.errors.assignee_agent_id[0], String(id)).toBe(bad.body.message);
    }
    const empty = await w.api.patch(`/api/v1/conversations/${conv.id}`, {});
    expect(empty.body.message).toBe("Debe indicar assignee_agent_id o status.");
    expect((await w.api.patch(`/api/v1/conversations/${conv.id}`, { assignee_agent_id: null })).body.data.assignee_agent_id).toBeNull();
    expect((await w.api.get("/api/v1/conversations?assignee=me")).status).toBe(422);
  });

  it("streams message.status as a message moves, with the failure reason", async () => {
    const w = await world();
    const c = await createContact(w.team.id);
    const s = await openSse(`${server.url}/api/v1/events?contact_id=${c.id}`, { authorization: `Bearer ${w.team.token}` });
    streams.push(s);
    await streamOpened(s);
    const sent = await w.send(c.customerNumber!);
    const updateId = sent.body.data.update_id;
    expect(JSON.parse((await s.next((e) => e.event === "message.created")).data)).toMatchObject({
      update_id: updateId,
      status: "QUEUED",
      direction: "OUTBOUND",
    });

    const db = await getDb();
    const error = { code: 131047, title: "Re-engagement message", details: "More than 24 hours have passed" };
    await db.update(messages).set({ status: "FAILED", error }).where(eq(messages.updateId, updateId));
    expect(JSON.parse((await s.next((e) => e.event === "message.status")).data)).toMatchObject({
      update_id: updateId,
      status: "FAILED",
      error,
    });
    // An update that leaves the status alone announces nothing.
    await db.update(messages).set({ attempts: 3 }).where(eq(messages.updateId, updateId));
    // Everything the log holds up to a later marker (on the stream's contact) has arrived: one status event.
    expect((await seenBeforeMarker(s, server.url, w.team, c.id)).filter((e) => e.event === "message.status")).toHaveLength(1);
  });

  it("shows the newest message by its own time, and lists by when messages were stored", async () => {
    const w = await world();
    const a = await createContact(w.team.id);
    const b = await createContact(w.team.id);
    const base = { teamId: w.team.id, waNumberId: w.number.id };
    await insertMessages({ team: w.team, number: w.number, contact: a }, [
      { createdAt: new Date("2026-01-01T10:00:00Z"), payload: { text: "a1" } },
      { createdAt: new Date("2026-01-01T12:00:00Z"), payload: { text: "a3" } },
      { createdAt: new Date("2026-01-01T11:00:00Z"), payload: { text: "a2" } },
    ]);
    await insertMessages({ team: w.team, number: w.number, contact: b }, [
      { ...base, createdAt: new Date("2026-01-01T09:00:00Z"), payload: { text: "b1" } },
    ]);
    // Shown: each conversation's newest message by its own time. Order: by when it was stored.
    const rows = (await list(w.api)).body.data;
    expect(rows.map((r: { last_message: { preview: string } }) => r.last_message.preview)).toEqual(["b1", "a3"]);
    expect(rows[1].unread_count).toBe(3);
    expect(rows[1].last_inbound_at).toBe("2026-01-01T12:00:00.000Z");
  });
});
