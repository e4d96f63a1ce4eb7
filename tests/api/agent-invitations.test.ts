import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { agentInvitations, agents } from "@/db/schema";
import { config } from "@/lib/config";
import { hashToken } from "@/lib/auth/tokens";
import { createToken } from "@/lib/auth/tokens";
import { INVALID_CREDENTIALS, PASSWORD_TOO_SHORT } from "@/lib/auth/session-schemas";
import {
  acceptEmailTaken,
  EMAIL_INVALID,
  INVITATION_ALREADY_USED,
  INVITATION_NOT_FOUND,
  INVITE_LINK_EXPIRED,
  INVITE_LINK_REVOKED,
  INVITE_LINK_UNKNOWN,
  INVITE_LINK_USED,
  INVITE_OWNER_ONLY,
  inviteEmailTaken,
} from "@/lib/agents/invitation-schemas";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createAgent, createTeam } from "../helpers/factories";
import { agentSession } from "../helpers/send-factories";

/**
 * Invitations (docs/features/agents.md): a one-time link, kept only as its SHA-256, valid 72 hours,
 * that creates the agent with the invited role and signs it in; revocable; never for an e-mail
 * that is already an agent's.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

let seq = 0;
const email = (prefix = "invitada") => `${prefix}-${process.pid}-${Date.now()}-${++seq}@example.com`;
const tokenOf = (link: string) => link.slice(link.lastIndexOf("/") + 1);
const cookieOf = (res: { headers: Headers }) => /wa_session=[^;]*/.exec(res.headers.get("set-cookie") ?? "")?.[0] ?? "";
const publicApi = () => apiClient(server.url);

async function invite(who: { headers: Record<string, string> }, body: { email: string; role: string }) {
  return apiClient(server.url).post("/api/v1/agents/invitations", body, who.headers);
}

async function auditActions(team: { token: string }, action: string) {
  const res = await apiClient(server.url, team.token).get(`/api/v1/audit?action=${action}`);
  expect(res.status).toBe(200);
  return res.body.data as { action: string; actor: { kind: string; name: string }; target: { name: string }; changes: unknown }[];
}

describe("inviting an agent", () => {
  it("invite → accept → the new agent is signed in with the invited role, and signs in again with its password", async () => {
    const team = await createTeam();
    const owner = await agentSession(team.id, { role: "owner", name: "Olga" });
    const address = email();
    const created = await invite(owner, { email: `  ${address.toUpperCase()} `, role: "supervisor" });
    expect(created.status).toBe(201);
    expect(created.body.message).toContain("No se envió ningún correo");
    const { link, ...invitation } = created.body.data;
    expect(link).toMatch(new RegExp(`^${config.appUrl}/invite/[A-Za-z0-9_-]{43}$`));
    expect(invitation).toMatchObject({
      email: address,
      role: "supervisor",
      invited_by: { kind: "agent", id: owner.agent.id, name: "Olga" },
      expired: false,
      email_sent: false,
    });
    const hours = (Date.parse(invitation.expires_at) - Date.parse(invitation.created_at)) / 3600_000;
    expect(hours).toBeCloseTo(72, 5);

    // Only the token's hash is stored; the list never shows it, even to whoever invited.
    const token = tokenOf(link);
    const db = await getDb();
    const [row] = await db.select().from(agentInvitations).where(eq(agentInvitations.id, invitation.id));
    expect(row.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    const supervisor = await agentSession(team.id, { role: "supervisor" });
    const listed = await publicApi().get("/api/v1/agents/invitations", supervisor.headers);
    expect(listed.status).toBe(200);
    const { email_sent: _sent, ...pending } = invitation;
    expect(listed.body.data).toEqual([pending]);
    expect(listed.text).not.toContain(token);

    const preview = await publicApi().post("/api/v1/auth/invitations/lookup", { token });
    expect(preview.status).toBe(200);
    expect(preview.body.data).toEqual({ team_name: team.name, email: address, role: "supervisor", expires_at: invitation.expires_at });

    const accepted = await publicApi().post("/api/v1/auth/invitations/accept", {
      token,
      name: "  Sofía Supervisora ",
      password: "clave-nueva-1",
    });
    expect(accepted.status).toBe(201);
    expect(accepted.body.data).toMatchObject({ name: "Sofía Supervisora", email: address, team_id: team.id, role: "supervisor" });
    const cookie = cookieOf(accepted);
    expect(cookie).not.toBe("wa_session=");
    expect(accepted.headers.get("set-cookie")).toContain("HttpOnly");
    const session = { cookie, "sec-fetch-site": "same-origin" };
    expect((await publicApi().get("/api/v1/auth/me", session)).body.data).toMatchObject({ email: address, role: "supervisor" });
    // The role holds at once: a supervisor reads the agents and changes none.
    const team_agents = await publicApi().get("/api/v1/agents", session);
    expect(team_agents.status).toBe(200);
    expect(team_agents.body.data.find((a: { email: string }) => a.email === address)).toMatchObject({ role: "supervisor", active: true });
    expect((await publicApi().patch(`/api/v1/agents/${owner.agent.id}`, { role: "agent" }, session)).status).toBe(403);

    const again = await publicApi().post("/api/v1/auth/login", { email: address, password: "clave-nueva-1" });
    expect(again.status).toBe(200);
    expect(again.body.data.role).toBe("supervisor");
    expect((await publicApi().post("/api/v1/auth/login", { email: address, password: "otra-clave-1" })).body.message).toBe(
      INVALID_CREDENTIALS,
    );

    // Used: gone from the pending list, and the link answers 410 from now on.
    expect((await publicApi().get("/api/v1/agents/invitations", owner.headers)).body.data).toEqual([]);
    const second = await publicApi().post("/api/v1/auth/invitations/accept", { token, name: "Otra", password: "clave-nueva-2" });
    expect(second.status).toBe(410);
    expect(second.body).toEqual({ message: INVITE_LINK_USED });
    expect((await publicApi().post("/api/v1/auth/invitations/lookup", { token })).status).toBe(410);

    const [invited] = await auditActions(team, "agent.invited");
    expect(invited).toMatchObject({ actor: { kind: "agent", name: "Olga" }, target: { name: address } });
    expect(invited.changes).toMatchObject({
      email: { before: null, after: address },
      role: { after: "supervisor" },
      token: { changed: true },
    });
    const [joined] = await auditActions(team, "agent.joined");
    expect(joined).toMatchObject({ actor: { kind: "agent", name: "Sofía Supervisora" }, target: { name: "Sofía Supervisora" } });
    expect(JSON.stringify(joined)).not.toContain("clave-nueva-1");
  });

  it("lets one of two simultaneous accepts of a link through; the other answers 410", async () => {
    const team = await createTeam();
    const owner = await agentSession(team.id, { role: "owner" });
    const address = email();
    const token = tokenOf((await invite(owner, { email: address, role: "agent" })).body.data.link);
    const [a, b] = await Promise.all([
      publicApi().post("/api/v1/auth/invitations/accept", { token, name: "Uno", password: "clave-nueva-1" }),
      publicApi().post("/api/v1/auth/invitations/accept", { token, name: "Dos", password: "clave-nueva-2" }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 410]);
    expect([a, b].find((r) => r.status === 410)!.body).toEqual({ message: INVITE_LINK_USED });
    const db = await getDb();
    expect(await db.select().from(agents).where(eq(agents.email, address))).toHaveLength(1);
  });

  it("refuses an expired link with 410 and creates nobody", async () => {
    const team = await createTeam();
    const owner = await agentSession(team.id, { role: "owner" });
    const address = email();
    const created = (await invite(owner, { email: address, role: "agent" })).body.data;
    const token = tokenOf(created.link);
    const db = await getDb();
    await db
      .update(agentInvitations)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(agentInvitations.id, created.id));

    const lookup = await publicApi().post("/api/v1/auth/invitations/lookup", { token });
    expect(lookup.status).toBe(410);
    expect(lookup.body).toEqual({ message: INVITE_LINK_EXPIRED });
    const accept = await publicApi().post("/api/v1/auth/invitations/accept", { token, name: "Tarde", password: "clave-nueva-1" });
    expect(accept.status).toBe(410);
    expect(accept.body.message).toMatch(/^La invitación venció/);
    expect(await db.select().from(agents).where(eq(agents.email, address))).toHaveLength(0);
    // Still listed, marked, until revoked or replaced.
    const listed = await publicApi().get("/api/v1/agents/invitations", owner.headers);
    expect(listed.body.data).toEqual([expect.objectContaining({ id: created.id, expired: true })]);
  });

  it("revokes a pending invitation: its link stops working; a used one cannot be revoked; another team's is 404", async () => {
    const team = await createTeam();
    const admin = await agentSession(team.id, { role: "admin", name: "Ada" });
    const created = (await invite(admin, { email: email(), role: "agent" })).body.data;
    const revoked = await publicApi().delete(`/api/v1/agents/invitations/${created.id}`, undefined, admin.headers);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toEqual({ message: "Invitación revocada correctamente: su enlace ya no sirve." });
    expect((await publicApi().get("/api/v1/agents/invitations", admin.headers)).body.data).toEqual([]);
    const accept = await publicApi().post("/api/v1/auth/invitations/accept", {
      token: tokenOf(created.link),
      name: "Nadie",
      password: "clave-nueva-1",
    });
    expect(accept.status).toBe(410);
    expect(accept.body).toEqual({ message: INVITE_LINK_REVOKED });
    // Revoking again changes nothing and records nothing more.
    expect((await publicApi().delete(`/api/v1/agents/invitations/${created.id}`, undefined, admin.headers)).status).toBe(200);
    expect(await auditActions(team, "agent.invitation_revoked")).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ name: "Ada" }),
        target: expect.objectContaining({ name: created.email }),
      }),
    ]);

    const used = (await invite(admin, { email: email(), role: "agent" })).body.data;
    await publicApi().post("/api/v1/auth/invitations/accept", { token: tokenOf(used.link), name: "Usada", password: "clave-nueva-1" });
    const late = await publicApi().delete(`/api/v1/agents/invitations/${used.id}`, undefined, admin.headers);
    expect(late.status).toBe(409);
    expect(late.body).toEqual({ message: INVITATION_ALREADY_USED });

    const other = await createTeam();
    const theirs = (await apiClient(server.url, other.token).post("/api/v1/agents/invitations", { email: email(), role: "agent" })).body
      .data;
    const foreign = await publicApi().delete(`/api/v1/agents/invitations/${theirs.id}`, undefined, admin.headers);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: INVITATION_NOT_FOUND });
    expect((await apiClient(server.url, other.token).get("/api/v1/agents/invitations")).body.data).toHaveLength(1);
  });

  it("inviting the same e-mail again replaces the earlier link", async () => {
    const team = await createTeam();
    const owner = await agentSession(team.id, { role: "owner" });
    const address = email();
    const first = (await invite(owner, { email: address, role: "agent" })).body.data;
    const second = (await invite(owner, { email: address, role: "admin" })).body.data;
    expect((await publicApi().post("/api/v1/auth/invitations/lookup", { token: tokenOf(first.link) })).body).toEqual({
      message: INVITE_LINK_REVOKED,
    });
    const listed = (await publicApi().get("/api/v1/agents/invitations", owner.headers)).body.data;
    expect(listed.map((i: { id: number; role: string }) => [i.id, i.role])).toEqual([[second.id, "admin"]]);
  });

  it("answers 409 for an e-mail that is already an agent's, at the invitation and at the acceptance", async () => {
    const team = await createTeam();
    const owner = await agentSession(team.id, { role: "owner" });
    const existing = await createAgent(team.id, undefined, { role: "agent" });
    const taken = await invite(owner, { email: existing.email.toUpperCase(), role: "agent" });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ message: inviteEmailTaken(existing.email) });

    // The e-mail became an agent's (another team's invitation, the CLI) after the invitation.
    const address = email();
    const token = tokenOf((await invite(owner, { email: address, role: "agent" })).body.data.link);
    const other = await createTeam();
    await createAgent(other.id, undefined, { email: address });
    const accept = await publicApi().post("/api/v1/auth/invitations/accept", { token, name: "Doble", password: "clave-nueva-1" });
    expect(accept.status).toBe(409);
    expect(accept.body).toEqual({ message: acceptEmailTaken(address) });
  });

  it("only an owner invites an owner; a supervisor invites nobody; bad input is 422; an unknown link 404", async () => {
    const team = await createTeam();
    const admin = await agentSession(team.id, { role: "admin" });
    const owner = await agentSession(team.id, { role: "owner" });
    const supervisor = await agentSession(team.id, { role: "supervisor" });
    const refused = await invite(admin, { email: email(), role: "owner" });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: INVITE_OWNER_ONLY });
    expect((await invite(owner, { email: email(), role: "owner" })).status).toBe(201);
    expect((await invite(supervisor, { email: email(), role: "agent" })).body).toEqual({ message: "Tu rol no permite esta acción." });
    // A token acts as an admin: never an owner's invitation.
    const { token } = await createToken({ input: { teamId: team.id, scopes: ["agents_admin"] } });
    const api = apiClient(server.url, token);
    expect((await api.post("/api/v1/agents/invitations", { email: email(), role: "owner" })).status).toBe(403);
    const byToken = await api.post("/api/v1/agents/invitations", { email: email(), role: "agent" });
    expect(byToken.status).toBe(201);
    expect(byToken.body.data.invited_by).toMatchObject({ kind: "token", name: expect.stringMatching(/^token #\d+$/) });

    const bad = await invite(admin, { email: "no-es-un-correo", role: "agent" });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({ message: EMAIL_INVALID, errors: { email: [EMAIL_INVALID] } });
    const link = (await invite(admin, { email: email(), role: "agent" })).body.data.link;
    const short = await publicApi().post("/api/v1/auth/invitations/accept", { token: tokenOf(link), name: "Corta", password: "1234567" });
    expect(short.status).toBe(422);
    expect(short.body.message).toBe(PASSWORD_TOO_SHORT);
    const unknown = await publicApi().post("/api/v1/auth/invitations/accept", {
      token: "x".repeat(43),
      name: "Nadie",
      password: "clave-nueva-1",
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: INVITE_LINK_UNKNOWN });
  });
});
