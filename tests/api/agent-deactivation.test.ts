import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { agents } from "@/db/schema";
import { createToken } from "@/lib/auth/tokens";
import { AGENT_DEACTIVATED, INVALID_CREDENTIALS } from "@/lib/auth/session-schemas";
import { LAST_OWNER, LAST_OWNER_DEACTIVATE, NOT_YOURSELF, OWNER_ONLY_ACTIVE, UPDATE_EMPTY } from "@/lib/agents/schemas";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { endsWithin, openSse, type SseStream, streamOpened } from "../helpers/sse";
import { createAgent, createContact, createNumber, createTeam } from "../helpers/factories";
import { insertMessages } from "../helpers/history-factories";
import { agentSession } from "../helpers/send-factories";

/**
 * Deactivating an agent (docs/features/agents.md): in one transaction its sessions end (the next
 * request is 401, its event streams end within 1 s), its open conversations are unassigned with
 * their events, and it cannot sign in; its name stays on its messages. Reactivating lets it in again.
 * The last active owner stays, and nobody deactivates themself.
 */
let server: TestServer;
const streams: SseStream[] = [];
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  streams.forEach((s) => s.close());
  await server.close();
});

const api = () => apiClient(server.url);
const patch = (who: { headers: Record<string, string> }, id: number, body: unknown) =>
  api().patch(`/api/v1/agents/${id}`, body, who.headers);

async function open(headers: Record<string, string>) {
  const s = await openSse(`${server.url}/api/v1/events`, headers);
  streams.push(s);
  expect(s.status).toBe(200);
  await streamOpened(s);
  return s;
}

describe("deactivating an agent", () => {
  it("ends its sessions (next request 401) and its open event stream within 1 s; it cannot sign in until reactivated", async () => {
    const team = await createTeam();
    const admin = await agentSession(team.id, { role: "admin", name: "Ada" });
    const worker = await createAgent(team.id, "clave-del-agente", { role: "agent", name: "Nico" });
    const login = await api().post("/api/v1/auth/login", { email: worker.email, password: "clave-del-agente" });
    expect(login.status).toBe(200);
    const cookie = /wa_session=[^;]*/.exec(login.headers.get("set-cookie") ?? "")![0];
    const session = { cookie, "sec-fetch-site": "same-origin" };
    expect((await api().get("/api/v1/auth/me", session)).status).toBe(200);
    const stream = await open(session);

    const res = await patch(admin, worker.id, { active: false });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Agente desactivado correctamente.");
    expect(res.body.data).toMatchObject({ id: worker.id, active: false, deactivated_at: expect.any(String) });
    await endsWithin(stream, 1000);

    const after = await api().get("/api/v1/auth/me", session);
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: AGENT_DEACTIVATED });
    // The right password is told the account is deactivated; a wrong one learns nothing new.
    const refused = await api().post("/api/v1/auth/login", { email: worker.email, password: "clave-del-agente" });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ message: AGENT_DEACTIVATED });
    expect(refused.headers.get("set-cookie")).toBeNull();
    const wrong = await api().post("/api/v1/auth/login", { email: worker.email, password: "otra-clave" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.message).toBe(INVALID_CREDENTIALS);
    expect((await api().get("/api/v1/auth/me", admin.headers)).status).toBe(200);

    const listed = (await api().get("/api/v1/agents", admin.headers)).body.data.find((a: { id: number }) => a.id === worker.id);
    expect(listed).toMatchObject({ active: false, deactivated_at: res.body.data.deactivated_at });

    const back = await patch(admin, worker.id, { active: true });
    expect(back.status).toBe(200);
    expect(back.body.message).toBe("Agente reactivado correctamente.");
    expect(back.body.data.deactivated_at).toBeNull();
    // The ended session stays ended; signing in again works.
    expect((await api().get("/api/v1/auth/me", session)).status).toBe(401);
    expect((await api().post("/api/v1/auth/login", { email: worker.email, password: "clave-del-agente" })).status).toBe(200);

    const audit = await apiClient(server.url, team.token).get("/api/v1/audit");
    const actions = audit.body.data.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["agent.deactivated", "agent.reactivated"]));
    const deactivated = audit.body.data.find((e: { action: string }) => e.action === "agent.deactivated");
    expect(deactivated).toMatchObject({
      actor: { kind: "agent", name: "Ada" },
      target: { kind: "agent", id: String(worker.id), name: "Nico" },
      changes: { status: { before: "active", after: "deactivated" }, sessions_open: { before: 1, after: 0 } },
    });
  });

  it("unassigns its open conversations with their events; resolved ones and other agents' stay; its name stays on its messages", async () => {
    const team = await createTeam();
    const number = await createNumber(team.id);
    const owner = await agentSession(team.id, { role: "owner" });
    const leaving = await createAgent(team.id, undefined, { role: "agent", name: "Lía" });
    const staying = await createAgent(team.id, undefined, { role: "agent" });
    const tokenApi = apiClient(server.url, team.token);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const conv = { team, number, contact: await createContact(team.id) };
      await insertMessages(conv, [{}]);
      // The first conversation holds a reply of the agent that leaves.
      if (i === 0) {
        await insertMessages(conv, [
          { direction: "OUTBOUND", sender: "AGENT", agentId: leaving.id, agentName: "Lía", status: "SENT", payload: { text: "Con gusto" } },
        ]);
      }
      ids.push(conv.contact.id);
    }
    const listed = (await tokenApi.get("/api/v1/conversations")).body.data as { id: number; contact: { id: number } }[];
    const byContact = (contactId: number) => listed.find((c) => c.contact.id === contactId)!.id;
    const [openMine, resolvedMine, theirs] = ids.map(byContact);
    expect((await tokenApi.patch(`/api/v1/conversations/${openMine}`, { assignee_agent_id: leaving.id })).status).toBe(200);
    const resolve = await tokenApi.patch(`/api/v1/conversations/${resolvedMine}`, { assignee_agent_id: leaving.id, status: "resolved" });
    expect(resolve.status).toBe(200);
    expect((await tokenApi.patch(`/api/v1/conversations/${theirs}`, { assignee_agent_id: staying.id })).status).toBe(200);
    const watcher = await open(owner.headers);

    expect((await patch(owner, leaving.id, { active: false })).status).toBe(200);
    const event = await watcher.next((e) => e.event === "conversation.updated" && JSON.parse(e.data).id === openMine);
    expect(JSON.parse(event.data)).toEqual({ id: openMine, assignee_agent_id: null });

    const assignee = async (id: number) => (await tokenApi.get(`/api/v1/conversations/${id}`)).body.data.assignee_agent_id;
    expect(await assignee(openMine)).toBeNull();
    expect(await assignee(resolvedMine)).toBe(leaving.id);
    expect(await assignee(theirs)).toBe(staying.id);
    const thread = await tokenApi.get(`/api/v1/conversations/${openMine}/messages`);
    expect(thread.body.data.map((m: { agent_name: string | null }) => m.agent_name)).toContain("Lía");
    // Nobody assigns a conversation to a deactivated agent.
    expect((await tokenApi.patch(`/api/v1/conversations/${openMine}`, { assignee_agent_id: leaving.id })).status).toBe(422);
  });

  it("keeps the last active owner: two owners deactivating each other at once leave one; nobody deactivates themself", async () => {
    const team = await createTeam();
    const a = await agentSession(team.id, { role: "owner" });
    const b = await agentSession(team.id, { role: "owner" });
    const admin = await agentSession(team.id, { role: "admin" });

    const self = await patch(admin, admin.agent.id, { active: false });
    expect(self.status).toBe(403);
    expect(self.body).toEqual({ message: NOT_YOURSELF });
    expect((await patch(a, a.agent.id, { active: false })).body).toEqual({ message: NOT_YOURSELF });
    // Only an owner deactivates an owner; a token acts as an admin.
    expect((await patch(admin, b.agent.id, { active: false })).body).toEqual({ message: OWNER_ONLY_ACTIVE });
    const { token } = await createToken({ input: { teamId: team.id, scopes: ["agents_admin"] } });
    const byToken = await apiClient(server.url, token).patch(`/api/v1/agents/${b.agent.id}`, { active: false });
    expect(byToken.body).toEqual({ message: OWNER_ONLY_ACTIVE });

    const [ab, ba] = await Promise.all([patch(a, b.agent.id, { active: false }), patch(b, a.agent.id, { active: false })]);
    // The loser is refused under the owners' lock (409), or, when it authenticates after the
    // winner's commit, as the deactivated agent it has just become (401).
    const loser = [ab, ba].find((r) => r.status !== 200)!;
    expect([ab.status, ba.status].filter((st) => st === 200)).toHaveLength(1);
    if (loser.status === 409) expect(loser.body).toEqual({ message: LAST_OWNER_DEACTIVATE });
    else expect(loser.body).toEqual({ message: AGENT_DEACTIVATED });
    const db = await getDb();
    const owners = await db.select({ id: agents.id, deactivatedAt: agents.deactivatedAt }).from(agents).where(eq(agents.role, "owner"));
    const mine = owners.filter((o) => o.id === a.agent.id || o.id === b.agent.id);
    expect(mine.filter((o) => !o.deactivatedAt)).toHaveLength(1);

    // A deactivated owner does not count: the one left cannot step down either.
    const left = ab.status === 200 ? a : b;
    const demote = await patch(left, left.agent.id, { role: "admin" });
    expect(demote.status).toBe(409);
    expect(demote.body).toEqual({ message: LAST_OWNER });
  });

  it("answers 404 for another team's agent, 422 for an empty change, and a token with agents_admin deactivates an agent", async () => {
    const team = await createTeam();
    const other = await createTeam();
    const owner = await agentSession(team.id, { role: "owner" });
    const stranger = await createAgent(other.id, undefined, { role: "agent" });
    expect((await patch(owner, stranger.id, { active: false })).status).toBe(404);
    const empty = await patch(owner, stranger.id, {});
    expect(empty.status).toBe(422);
    expect(empty.body.message).toBe(UPDATE_EMPTY);
    const mine = await createAgent(team.id, undefined, { role: "agent" });
    const { token } = await createToken({ input: { teamId: team.id, scopes: ["agents_admin"] } });
    const res = await apiClient(server.url, token).patch(`/api/v1/agents/${mine.id}`, { active: false });
    expect(res.status).toBe(200);
    expect(res.body.data.deactivated_at).not.toBeNull();
    const db = await getDb();
    const [row] = await db.select({ deactivatedAt: agents.deactivatedAt }).from(agents).where(eq(agents.id, stranger.id));
    expect(row.deactivatedAt).toBeNull();
  });
});
