import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { agents } from "@/db/schema";
import { createToken } from "@/lib/auth/tokens";
import { LAST_OWNER, OWNER_ONLY, ROLE_INVALID } from "@/lib/agents/schemas";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createAgent, createTeam } from "../helpers/factories";
import { agentSession } from "../helpers/send-factories";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const roleOf = async (id: number) => (await (await getDb()).select({ role: agents.role }).from(agents).where(eq(agents.id, id)))[0].role;

describe("GET /api/v1/agents", () => {
  it("lists the team's agents with role, last sign-in and whether a session is open; nothing of another team", async () => {
    const team = await createTeam();
    const other = await createTeam();
    await createAgent(other.id);
    const boss = await agentSession(team.id, { role: "owner", name: "Olga" });
    const never = await createAgent(team.id, "clave-segura-1", { role: "agent", name: "Nico" });
    const signIn = await apiClient(server.url).post("/api/v1/auth/login", { email: boss.agent.email, password: boss.agent.password });
    expect(signIn.status).toBe(200);
    expect(signIn.body.data.role).toBe("owner");

    const res = await apiClient(server.url).get("/api/v1/agents", boss.headers);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        id: boss.agent.id,
        name: "Olga",
        email: boss.agent.email,
        role: "owner",
        last_sign_in_at: expect.any(String),
        active: true,
        deactivated_at: null,
      },
      { id: never.id, name: "Nico", email: never.email, role: "agent", last_sign_in_at: null, active: false, deactivated_at: null },
    ]);
    expect(Date.now() - Date.parse(res.body.data[0].last_sign_in_at)).toBeLessThan(60_000);
  });
});

describe("PATCH /api/v1/agents/{id}", () => {
  it("lets an admin change roles below owner, refuses owner to anyone but an owner, and never takes the last owner", async () => {
    const team = await createTeam();
    const owner = await agentSession(team.id, { role: "owner" });
    const admin = await agentSession(team.id, { role: "admin" });
    const worker = await createAgent(team.id, undefined, { role: "agent" });
    const asAdmin = apiClient(server.url);
    const patch = (who: { headers: Record<string, string> }, id: number, body: unknown) =>
      asAdmin.patch(`/api/v1/agents/${id}`, body, who.headers);

    const promoted = await patch(admin, worker.id, { role: "supervisor" });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({
      message: "Rol del agente actualizado correctamente.",
      data: { id: worker.id, role: "supervisor" },
    });
    expect(await roleOf(worker.id)).toBe("supervisor");

    expect((await patch(admin, worker.id, { role: "owner" })).body).toEqual({ message: OWNER_ONLY });
    expect((await patch(admin, owner.agent.id, { role: "admin" })).status).toBe(403);
    expect(await roleOf(owner.agent.id)).toBe("owner");
    expect((await patch(admin, worker.id, { role: "jefe" })).body).toEqual({ message: ROLE_INVALID, errors: { role: [ROLE_INVALID] } });

    // The only owner cannot step down; once there is a second, one of them may.
    const alone = await patch(owner, owner.agent.id, { role: "admin" });
    expect(alone.status).toBe(409);
    expect(alone.body).toEqual({ message: LAST_OWNER });
    expect((await patch(owner, admin.agent.id, { role: "owner" })).status).toBe(200);
    expect((await patch(owner, owner.agent.id, { role: "admin" })).status).toBe(200);
    expect(await roleOf(owner.agent.id)).toBe("admin");
    // The role is read on every request: the former owner is an admin at once.
    expect((await patch(owner, admin.agent.id, { role: "agent" })).body).toEqual({ message: OWNER_ONLY });
  });

  it("keeps one owner when two owners demote each other at the same time", async () => {
    const team = await createTeam();
    const a = await agentSession(team.id, { role: "owner" });
    const b = await agentSession(team.id, { role: "owner" });
    const client = apiClient(server.url);
    const [ab, ba] = await Promise.all([
      client.patch(`/api/v1/agents/${b.agent.id}`, { role: "admin" }, a.headers),
      client.patch(`/api/v1/agents/${a.agent.id}`, { role: "admin" }, b.headers),
    ]);
    // The loser is refused either under the owners' lock (409) or, when it signs in after the
    // winner's commit, as the admin it has just become (403).
    const statuses = [ab.status, ba.status].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const roles = [await roleOf(a.agent.id), await roleOf(b.agent.id)];
    expect(roles.filter((r) => r === "owner")).toHaveLength(1);
  });

  it("answers 404 for another team's agent, and a token acts as an admin with agents_admin only", async () => {
    const team = await createTeam();
    const other = await createTeam();
    const stranger = await createAgent(other.id, undefined, { role: "agent" });
    const mine = await createAgent(team.id, undefined, { role: "agent" });
    const owner = await agentSession(team.id, { role: "owner" });
    const res = await apiClient(server.url).patch(`/api/v1/agents/${stranger.id}`, { role: "admin" }, owner.headers);
    expect(res.status).toBe(404);
    expect(await roleOf(stranger.id)).toBe("agent");

    const { token } = await createToken({ input: { teamId: team.id, scopes: ["agents_admin"] } });
    const api = apiClient(server.url, token);
    expect((await api.patch(`/api/v1/agents/${mine.id}`, { role: "admin" })).status).toBe(200);
    expect((await api.patch(`/api/v1/agents/${mine.id}`, { role: "owner" })).body).toEqual({ message: OWNER_ONLY });
    const { token: sender } = await createToken({ input: { teamId: team.id, scopes: ["send"] } });
    expect((await apiClient(server.url, sender).get("/api/v1/agents")).body).toEqual({
      message: "El token no tiene el permiso necesario: agents_admin.",
    });
  });

  it("refuses a supervisor and an agent with the role's message", async () => {
    const team = await createTeam();
    const target = await createAgent(team.id, undefined, { role: "agent" });
    for (const role of ["supervisor", "agent"] as const) {
      const who = await agentSession(team.id, { role });
      const res = await apiClient(server.url).patch(`/api/v1/agents/${target.id}`, { role: "admin" }, who.headers);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: "Tu rol no permite esta acción." });
    }
    expect(await roleOf(target.id)).toBe("agent");
  });
});
