import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createConversation, insertMessages } from "../helpers/history-factories";
import { agentSession } from "../helpers/send-factories";
import { runAdmin } from "@/lib/admin/run";

/**
 * The inbox's clocks (docs/features/inbox.md): waiting_since, first_response_seconds, opened_at
 * and resolved_at as the conversation's triggers keep them, and the team's waiting alert
 * (docs/features/team-settings.md).
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const SETTINGS = "/api/v1/team/settings";
const ALERT_INVALID = "El campo waiting_alert_minutes debe ser un número entero entre 1 y 1440.";

async function conversationOf() {
  const c = await createConversation();
  const api = apiClient(server.url, c.team.token);
  // Every instant of a test counted from one "now": the machine may take seconds between steps.
  const t0 = Date.now();
  const ago = (minutes: number) => new Date(t0 - minutes * 60_000);
  const read = async () => {
    const [conv] = (await api.get("/api/v1/conversations?status=open")).body.data;
    const id = conv?.id ?? (await api.get("/api/v1/conversations?status=resolved")).body.data[0].id;
    return (await api.get(`/api/v1/conversations/${id}`)).body.data;
  };
  const customer = (at: Date) => insertMessages(c, [{ createdAt: at, providerMessageId: `wamid.CLK${Date.now()}${Math.random()}` }]);
  const answer = (at: Date, sender: "AGENT" | "BOT" | "SYSTEM" = "AGENT") =>
    insertMessages(c, [{ createdAt: at, direction: "OUTBOUND", sender, status: "SENT", payload: { text: "respuesta" } }]);
  return { ...c, api, read, customer, answer, ago };
}

describe("a conversation's clocks", () => {
  it("waits since the customer's oldest unanswered message; the first answer sets the first response once", async () => {
    const c = await conversationOf();
    await c.customer(c.ago(10));
    await c.customer(c.ago(5));
    let conv = await c.read();
    expect(conv.waiting_since).toBe(c.ago(10).toISOString());
    expect(conv).toMatchObject({ status: "open", first_response_seconds: null, resolved_at: null });
    expect(Date.parse(conv.opened_at)).toBe(Date.parse(conv.waiting_since));

    // A bot's message answers nobody: the customer still waits.
    await c.answer(c.ago(4), "BOT");
    expect((await c.read()).waiting_since).toBe(conv.waiting_since);

    await c.answer(c.ago(4));
    conv = await c.read();
    expect(conv.waiting_since).toBeNull();
    expect(conv.first_response_seconds).toBe(360);
    const first = conv.first_response_seconds;

    // A later wait and its answer leave the first response as it was.
    await c.customer(c.ago(3));
    expect((await c.read()).waiting_since).toBe(c.ago(3).toISOString());
    await c.answer(c.ago(1));
    conv = await c.read();
    expect(conv).toMatchObject({ waiting_since: null, first_response_seconds: first });
  });

  it("resolving sets resolved_at and ends the wait; a customer's message reopens with new clocks", async () => {
    const c = await conversationOf();
    await c.customer(c.ago(30));
    await c.answer(c.ago(29));
    await c.customer(c.ago(20));
    const before = Date.now();
    const resolved = await c.api.patch(`/api/v1/conversations/${(await c.read()).id}`, { status: "resolved" });
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toMatchObject({ status: "resolved", waiting_since: null, first_response_seconds: 60 });
    expect(Date.parse(resolved.body.data.resolved_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(resolved.body.data.resolved_at)).toBeLessThanOrEqual(Date.now() + 1000);

    // The customer writes again: a new opening, waiting from that message, not from before the resolution.
    await c.customer(c.ago(2));
    let conv = await c.read();
    expect(conv).toMatchObject({ status: "open", resolved_at: null, first_response_seconds: null });
    expect(conv.waiting_since).toBe(c.ago(2).toISOString());
    expect(Date.parse(conv.opened_at)).toBe(Date.parse(conv.waiting_since));
    await c.answer(c.ago(1));
    conv = await c.read();
    expect(conv).toMatchObject({ waiting_since: null, first_response_seconds: 60 });
  });

  it("an agent's reopening clears resolved_at and the first response", async () => {
    const c = await conversationOf();
    await c.customer(c.ago(10));
    await c.answer(c.ago(9));
    const id = (await c.read()).id;
    expect((await c.api.patch(`/api/v1/conversations/${id}`, { status: "resolved" })).body.data.resolved_at).not.toBeNull();
    const reopened = await c.api.patch(`/api/v1/conversations/${id}`, { status: "open" });
    expect(reopened.body.data).toMatchObject({ status: "open", resolved_at: null, first_response_seconds: null, waiting_since: null });
    expect(Date.parse(reopened.body.data.opened_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("the list carries the same clocks, and another team's conversation stays out of reach", async () => {
    const c = await conversationOf();
    await c.customer(c.ago(7));
    const [row] = (await c.api.get("/api/v1/conversations")).body.data;
    expect(row).toMatchObject({ waiting_since: (await c.read()).waiting_since, first_response_seconds: null, resolved_at: null });
    expect(typeof row.opened_at).toBe("string");
    const other = await conversationOf();
    expect((await other.api.get(`/api/v1/conversations/${row.id}`)).status).toBe(404);
    expect((await other.api.get("/api/v1/conversations")).body.data).toEqual([]);
  });
});

describe("the team's waiting alert (waiting_alert_minutes)", () => {
  it("is 15 by default; owners change it within 1–1440, audited; other values are refused; other teams keep theirs", async () => {
    const c = await createConversation();
    const api = apiClient(server.url, c.team.token);
    const owner = await agentSession(c.team.id, { role: "owner" });
    const agent = await agentSession(c.team.id, { role: "agent" });
    expect((await api.get(SETTINGS)).body.data.waiting_alert_minutes).toBe(15);

    for (const bad of [0, 1441, 2.5, "10", null, -3]) {
      const res = await apiClient(server.url).patch(SETTINGS, { waiting_alert_minutes: bad }, owner.headers);
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(res.body.errors).toEqual({ waiting_alert_minutes: [ALERT_INVALID] });
    }
    for (const good of [1, 1440, 5]) {
      const res = await apiClient(server.url).patch(SETTINGS, { waiting_alert_minutes: good }, owner.headers);
      expect(res.status).toBe(200);
      expect(res.body.data.waiting_alert_minutes).toBe(good);
    }
    const refused = await apiClient(server.url).patch(SETTINGS, { waiting_alert_minutes: 30 }, agent.headers);
    expect(refused.status).toBe(403);
    expect((await api.get(SETTINGS)).body.data.waiting_alert_minutes).toBe(5);

    const audit = (await api.get("/api/v1/audit?action=team.settings_updated")).body.data;
    expect(audit.map((a: { changes: unknown }) => a.changes)).toEqual([
      { waiting_alert_minutes: { before: 1440, after: 5 } },
      { waiting_alert_minutes: { before: 1, after: 1440 } },
      { waiting_alert_minutes: { before: 15, after: 1 } },
    ]);

    const other = await createConversation();
    expect((await apiClient(server.url, other.team.token).get(SETTINGS)).body.data.waiting_alert_minutes).toBe(15);

    // The admin CLI's `team:settings` sets it for the named team only, with the same rule.
    const set = await runAdmin(["team:settings", "--team", String(other.team.id), "--waiting-alert-minutes", "45"]);
    expect(set).toMatchObject({ code: 0, output: { waiting_alert_minutes: 45 } });
    const bad = await runAdmin(["team:settings", "--team", String(other.team.id), "--waiting-alert-minutes", "doce"]);
    expect(bad.code).toBe(1);
    expect(JSON.stringify(bad.output)).toContain(ALERT_INVALID);
    expect((await api.get(SETTINGS)).body.data.waiting_alert_minutes).toBe(5);
  });
});
