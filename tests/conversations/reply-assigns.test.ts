import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { openSse, streamOpened, type SseStream } from "../helpers/sse";
import { createConversation, insertMessages } from "../helpers/history-factories";
import { agentSession } from "../helpers/send-factories";
import { runAdmin } from "@/lib/admin/run";

const SEND = "/api/v1/messages/whatsapp/send";
let server: TestServer;
const streams: SseStream[] = [];
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  streams.forEach((s) => s.close());
  await server.close();
});

/** A conversation whose customer wrote a minute ago (its reply window open), unassigned. */
async function openConversation() {
  const c = await createConversation();
  await insertMessages(c, [{ createdAt: new Date(Date.now() - 60_000), providerMessageId: `wamid.IN${Date.now()}${Math.random()}` }]);
  const api = apiClient(server.url, c.team.token);
  const [conv] = (await api.get("/api/v1/conversations")).body.data;
  const reply = { wa_number: c.number.number, customer_source: c.contact.customerNumber, type: "text", payload: { text: "Hola" } };
  return { ...c, api, conv, reply };
}

const assigneeOf = async (c: Awaited<ReturnType<typeof openConversation>>) =>
  (await c.api.get(`/api/v1/conversations/${c.conv.id}`)).body.data.assignee_agent_id;

describe("an agent's reply assigns an unassigned conversation (team setting reply_assigns)", () => {
  it("is on by default: the replying agent takes it, and conversation.updated streams it", async () => {
    const c = await openConversation();
    expect(c.conv.assignee_agent_id).toBeNull();
    expect((await c.api.get("/api/v1/team/settings")).body.data).toMatchObject({ reply_assigns: true });
    const s = await openSse(`${server.url}/api/v1/events`, { authorization: `Bearer ${c.team.token}` });
    streams.push(s);
    await streamOpened(s);

    const { agent, headers } = await agentSession(c.team.id);
    const res = await apiClient(server.url).post(SEND, c.reply, headers);
    expect(res.status).toBe(200);
    expect(await assigneeOf(c)).toBe(agent.id);
    const ev = await s.next((e) => e.event === "conversation.updated");
    expect(JSON.parse(ev.data)).toEqual({ id: c.conv.id, assignee_agent_id: agent.id });

    // Already assigned: another agent's reply leaves it with the first.
    const other = await agentSession(c.team.id);
    expect((await apiClient(server.url).post(SEND, c.reply, other.headers)).status).toBe(200);
    expect(await assigneeOf(c)).toBe(agent.id);
  });

  it("assigns nothing with the setting off", async () => {
    const c = await openConversation();
    const set = await runAdmin(["team:settings", "--team", String(c.team.id), "--reply-assigns", "off"]);
    expect(set).toMatchObject({ code: 0, output: { reply_assigns: false } });
    expect((await c.api.get("/api/v1/team/settings")).body.data).toMatchObject({ reply_assigns: false });

    const { headers } = await agentSession(c.team.id);
    expect((await apiClient(server.url).post(SEND, c.reply, headers)).status).toBe(200);
    expect(await assigneeOf(c)).toBeNull();
  });

  it("assigns nothing for an API token's reply: there is no agent", async () => {
    const c = await openConversation();
    expect((await c.api.post(SEND, c.reply)).status).toBe(200);
    expect(await assigneeOf(c)).toBeNull();
  });

  it("a replayed reply (same Idempotency-Key) assigns once, and a refused one not at all", async () => {
    const c = await openConversation();
    const { agent, headers } = await agentSession(c.team.id);
    const closed = await apiClient(server.url).post(SEND, { ...c.reply, customer_source: "570000000001" }, headers);
    expect(closed.status).toBe(422);
    expect(await assigneeOf(c)).toBeNull();

    const keyed = { ...headers, "idempotency-key": `reply-${c.conv.id}` };
    const first = await apiClient(server.url).post(SEND, c.reply, keyed);
    const again = await apiClient(server.url).post(SEND, c.reply, keyed);
    expect(again.body).toEqual(first.body);
    expect(await assigneeOf(c)).toBe(agent.id);
  });
});

describe("GET /api/v1/team/settings: the default country", () => {
  it("is none until set; the CLI sets it (ISO code, its calling code derived) and clears it", async () => {
    const c = await createConversation();
    const api = apiClient(server.url, c.team.token);
    expect((await api.get("/api/v1/team/settings")).body).toEqual({
      message: "Configuración del equipo obtenida correctamente.",
      data: { default_country: null, default_calling_code: null, reply_assigns: true, waiting_alert_minutes: 15 },
    });
    expect(await runAdmin(["team:settings", "--team", String(c.team.id), "--default-country", "co"])).toMatchObject({
      code: 0,
      output: { default_country: "CO", default_calling_code: "57" },
    });
    expect((await api.get("/api/v1/team/settings")).body.data).toEqual({
      default_country: "CO",
      default_calling_code: "57",
      reply_assigns: true,
      waiting_alert_minutes: 15,
    });

    const bad = await runAdmin(["team:settings", "--team", String(c.team.id), "--default-country", "XX"]);
    expect(bad.code).toBe(1);
    expect(JSON.stringify(bad.output)).toContain("El país por defecto no es un código de país conocido.");
    expect(await runAdmin(["team:settings", "--team", String(c.team.id), "--default-country", "none"])).toMatchObject({
      code: 0,
      output: { default_country: null, default_calling_code: null },
    });
  });
});

describe("PATCH /api/v1/team/settings: the settings page's change", () => {
  it("changes, audits before and after, writes nothing when nothing changes, and is refused to agents", async () => {
    const c = await createConversation();
    const owner = await agentSession(c.team.id, { role: "owner" });
    const agent = await agentSession(c.team.id, { role: "agent" });
    const api = apiClient(server.url, c.team.token);
    const changed = await apiClient(server.url).patch(
      "/api/v1/team/settings",
      { default_country: "mx", reply_assigns: false },
      owner.headers,
    );
    expect(changed.body).toEqual({
      message: "Configuración del equipo actualizada correctamente.",
      data: { default_country: "MX", default_calling_code: "52", reply_assigns: false, waiting_alert_minutes: 15 },
    });
    // The same values again change nothing and leave no second audit row.
    expect((await apiClient(server.url).patch("/api/v1/team/settings", { default_country: "MX" }, owner.headers)).status).toBe(200);
    const audit = (await api.get("/api/v1/audit?action=team.settings_updated")).body.data;
    expect(audit).toHaveLength(1);
    expect(audit[0].actor).toMatchObject({ kind: "agent", id: owner.agent.id });
    expect(audit[0].changes).toEqual({
      default_country: { before: null, after: "MX" },
      reply_assigns: { before: true, after: false },
    });

    const unknown = await apiClient(server.url).patch("/api/v1/team/settings", { default_country: "ZZ" }, owner.headers);
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ default_country: ["El país por defecto no es un código de país conocido."] });
    const refused = await apiClient(server.url).patch("/api/v1/team/settings", { reply_assigns: true }, agent.headers);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Tu rol no permite esta acción.");
    // Another team's settings are untouched.
    const other = await createConversation();
    expect((await apiClient(server.url, other.team.token).get("/api/v1/team/settings")).body.data).toMatchObject({
      default_country: null,
      reply_assigns: true,
    });
  });
});
