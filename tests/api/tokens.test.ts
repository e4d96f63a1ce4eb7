import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { apiTokens } from "@/db/schema";
import { createToken, hashToken } from "@/lib/auth/tokens";
import { settleTokenTouches } from "@/lib/auth/token-usage";
import { tokenExpiredMessage, tokenReplacedMessage } from "@/lib/auth/token-validity";
import { ROLE_REFUSED } from "@/lib/auth/permissions";
import {
  EXPIRES_AT_FORMAT,
  EXPIRES_AT_PAST,
  OVERLAP_INVALID,
  outlivesCaller,
  SCOPE_INVALID,
  SCOPES_REQUIRED,
  scopesNotHeld,
  TOKEN_ALREADY_ROLLED,
  TOKEN_EXPIRED,
  TOKEN_NOT_FOUND,
} from "@/lib/api-tokens/schemas";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createTeam } from "../helpers/factories";
import { agentSession } from "../helpers/send-factories";
import { endsWithin, openSse, type SseStream, streamOpened } from "../helpers/sse";
import { waitFor } from "../helpers/wait";

/**
 * API tokens made, listed, revoked and rolled through /api/v1/tokens (docs/features/api-tokens.md):
 * the secret once, never a hash; revocation ends streams within a second; a roll's overlap;
 * expiry enforced even for a cached token; a token never hands on a scope it lacks; last_used_at
 * written at most once a minute per process, after the answer.
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
afterEach(() => {
  vi.useRealTimers();
});

const UNAUTHENTICATED = { message: "Unauthenticated." };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A team with an owner's session: `as.post(...)` calls with its cookie. */
async function ownedTeam() {
  const team = await createTeam();
  const owner = await agentSession(team.id, { role: "owner", name: "Olga" });
  const client = apiClient(server.url);
  const as = {
    get: (path: string) => client.get(path, owner.headers),
    post: (path: string, body?: unknown) => client.post(path, body, owner.headers),
    delete: (path: string) => client.delete(path, undefined, owner.headers),
  };
  return { team, owner, as };
}

/** A call with a bearer token to a route of the `history` scope (conversations:read). */
const historyCall = (token: string) => apiClient(server.url, token).get("/api/v1/conversations");

async function rowOf(id: number) {
  const [row] = await (await getDb()).select().from(apiTokens).where(eq(apiTokens.id, id));
  return row;
}

async function openStream(token: string) {
  const s = await openSse(`${server.url}/api/v1/events`, bearer(token));
  streams.push(s);
  expect(s.status).toBe(200);
  await streamOpened(s);
  return s;
}

describe("POST /api/v1/tokens", () => {
  it("shows the secret once, stores only its hash, and the token may do what its scopes grant and nothing else", async () => {
    const { team, owner, as } = await ownedTeam();
    const res = await as.post("/api/v1/tokens", { name: "  CRM  ", scopes: ["history"] });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe("Token creado correctamente. Guárdelo ahora: no se volverá a mostrar.");
    const { secret, token } = res.body.data;
    expect(secret).toMatch(/^wam_[A-Za-z0-9_-]{43}$/);
    expect(token).toEqual({
      id: expect.any(Number),
      name: "CRM",
      prefix: secret.slice(0, 8),
      scopes: ["history"],
      created_at: expect.any(String),
      created_by: { kind: "agent", id: owner.agent.id, name: "Olga" },
      last_used_at: null,
      expires_at: null,
      revoked_at: null,
      replaced_by: null,
      overlap_ends_at: null,
      state: "active",
    });
    const row = await rowOf(token.id);
    expect(row.teamId).toBe(team.id);
    expect(row.tokenHash).toBe(hashToken(secret));
    expect(JSON.stringify(row)).not.toContain(secret);

    expect((await historyCall(secret)).status).toBe(200);
    const refused = await apiClient(server.url, secret).get("/api/v1/contacts");
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: "El token no tiene el permiso necesario: contacts." });

    // The audit trail says who made it and which scopes, never the secret.
    const audit = await as.get("/api/v1/audit?action=token.created");
    expect(audit.body.data).toHaveLength(1);
    expect(audit.body.data[0]).toMatchObject({
      actor: { kind: "agent", id: owner.agent.id, name: "Olga" },
      target: { kind: "token", id: String(token.id), name: "CRM" },
      changes: { name: { before: null, after: "CRM" }, scopes: { before: null, after: ["history"] }, token: { changed: true } },
    });
    expect(audit.text).not.toContain(secret);
  });

  it("refuses a bad body with the field's text, and a supervisor or an agent with the role's", async () => {
    const { team, as } = await ownedTeam();
    const cases: [unknown, string, string][] = [
      [{ scopes: ["history"] }, "name", "El campo name es obligatorio."],
      [{ name: " ", scopes: ["history"] }, "name", "El campo name es obligatorio."],
      [{ name: "x" }, "scopes", SCOPES_REQUIRED],
      [{ name: "x", scopes: [] }, "scopes", SCOPES_REQUIRED],
      [{ name: "x", scopes: ["todo"] }, "scopes.0", SCOPE_INVALID],
      [{ name: "x", scopes: ["send"], expires_at: "mañana" }, "expires_at", EXPIRES_AT_FORMAT],
      [{ name: "x", scopes: ["send"], expires_at: "2027-01-01" }, "expires_at", EXPIRES_AT_FORMAT],
      [{ name: "x", scopes: ["send"], expires_at: "2020-01-01T00:00:00Z" }, "expires_at", EXPIRES_AT_PAST],
    ];
    for (const [body, field, message] of cases) {
      const res = await as.post("/api/v1/tokens", body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body, JSON.stringify(body)).toEqual({ message, errors: { [field]: [message] } });
    }
    for (const role of ["supervisor", "agent"] as const) {
      const who = await agentSession(team.id, { role });
      const res = await apiClient(server.url).post("/api/v1/tokens", { name: "x", scopes: ["send"] }, who.headers);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: ROLE_REFUSED });
    }
    expect((await as.get("/api/v1/tokens")).body.data).toHaveLength(1);
  });
});

describe("GET /api/v1/tokens", () => {
  it("lists the team's tokens newest first with their creators, never a secret or a hash; supervisors read, agents do not", async () => {
    const { team, as } = await ownedTeam();
    const other = await createTeam();
    const made = await as.post("/api/v1/tokens", { name: "Zapier", scopes: ["send", "contacts"], expires_at: "2099-12-31T23:59:59Z" });
    const secret: string = made.body.data.secret;

    const supervisor = await agentSession(team.id, { role: "supervisor" });
    const res = await apiClient(server.url).get("/api/v1/tokens", supervisor.headers);
    expect(res.status).toBe(200);
    expect(res.body.data.map((t: { name: string }) => t.name)).toEqual(["Zapier", "test"]);
    expect(res.body.data[0]).toMatchObject({ scopes: ["send", "contacts"], expires_at: "2099-12-31T23:59:59.000Z", state: "active" });
    // The factory's token was made like the CLI's.
    expect(res.body.data[1].created_by).toEqual({ kind: "system", id: null, name: "CLI" });
    for (const secretish of [secret, hashToken(secret), team.token, hashToken(team.token), other.token]) {
      expect(res.text).not.toContain(secretish);
    }
    expect(res.text).not.toMatch(/hash|secret/i);

    const agent = await agentSession(team.id, { role: "agent" });
    expect((await apiClient(server.url).get("/api/v1/tokens", agent.headers)).body).toEqual({ message: ROLE_REFUSED });
  });
});

describe("DELETE /api/v1/tokens/{id}", () => {
  it("revokes: the token answers 401 at once, its open event stream ends within 1 s, and it is audited once", async () => {
    const { team, as } = await ownedTeam();
    const { secret, token } = (await as.post("/api/v1/tokens", { name: "Panel", scopes: ["history"] })).body.data;
    expect((await historyCall(secret)).status).toBe(200);
    const stream = await openStream(secret);

    const res = await as.delete(`/api/v1/tokens/${token.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: "Token revocado correctamente.", data: { id: token.id, state: "revoked" } });
    expect(res.body.data.revoked_at).toEqual(expect.any(String));
    await endsWithin(stream, 1000);
    const after = await historyCall(secret);
    expect(after.status).toBe(401);
    expect(after.body).toEqual(UNAUTHENTICATED);
    expect((await historyCall(team.token)).status).toBe(200);

    // Again: nothing changes, nothing more is recorded; another team's token is not found.
    const again = await as.delete(`/api/v1/tokens/${token.id}`);
    expect(again.status).toBe(200);
    expect(again.body.data.revoked_at).toBe(res.body.data.revoked_at);
    const audit = await as.get("/api/v1/audit?action=token.revoked");
    expect(audit.body.data).toHaveLength(1);
    expect(audit.body.data[0].target).toEqual({ kind: "token", id: String(token.id), name: "Panel" });
    const stranger = await createTeam();
    const [strangerRow] = await (
      await getDb()
    )
      .select({ id: apiTokens.id })
      .from(apiTokens)
      .where(eq(apiTokens.tokenHash, hashToken(stranger.token)));
    const foreign = await as.delete(`/api/v1/tokens/${strangerRow.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: TOKEN_NOT_FOUND });
    expect((await historyCall(stranger.token)).status).toBe(200);
  });
});

describe("POST /api/v1/tokens/{id}/roll", () => {
  it("with an overlap: both work, the old one's stream and requests end when the overlap does", async () => {
    const { as } = await ownedTeam();
    const made = await as.post("/api/v1/tokens", { name: "ERP", scopes: ["history"], expires_at: "2099-01-01T00:00:00Z" });
    const old = made.body.data;
    expect((await historyCall(old.secret)).status).toBe(200);

    const t0 = Date.now();
    const res = await as.post(`/api/v1/tokens/${old.token.id}/roll`, { overlap_hours: 24 });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe("Token renovado correctamente. Guarde el nuevo ahora: no se volverá a mostrar.");
    const { secret, token, previous } = res.body.data;
    expect(secret).not.toBe(old.secret);
    expect(token).toMatchObject({ name: "ERP", scopes: ["history"], expires_at: "2099-01-01T00:00:00.000Z", state: "active" });
    expect(previous).toMatchObject({ id: old.token.id, replaced_by: token.id, state: "rolling", revoked_at: null });
    expect(Math.abs(Date.parse(previous.overlap_ends_at) - (t0 + 24 * 3600_000))).toBeLessThan(60_000);

    expect((await historyCall(old.secret)).status).toBe(200);
    expect((await historyCall(secret)).status).toBe(200);
    const listed = (await as.get("/api/v1/tokens")).body.data;
    expect(listed.find((t: { id: number }) => t.id === old.token.id)).toMatchObject({ state: "rolling", replaced_by: token.id });
    expect((await as.post(`/api/v1/tokens/${old.token.id}/roll`, { overlap_hours: 1 })).body).toEqual({ message: TOKEN_ALREADY_ROLLED });

    // The overlap ends (the row moved into the past, as a day passing would): the old token is
    // refused with a message that says why, and its open stream ends.
    const stream = await openStream(old.secret);
    await (
      await getDb()
    )
      .update(apiTokens)
      .set({ overlapEndsAt: sql`now() - interval '1 second'` })
      .where(eq(apiTokens.id, old.token.id));
    await endsWithin(stream, 1000);
    const refused = await waitFor(
      () => historyCall(old.secret),
      (r) => r.status === 401,
    );
    const ended = (await rowOf(old.token.id)).overlapEndsAt!;
    expect(refused.body).toEqual({ message: tokenReplacedMessage(ended) });
    expect((await historyCall(secret)).status).toBe(200);
    expect((await as.get("/api/v1/tokens")).body.data.find((t: { id: number }) => t.id === old.token.id).state).toBe("replaced");

    const audit = await as.get("/api/v1/audit?action=token.rolled");
    expect(audit.body.data).toHaveLength(1);
    expect(audit.body.data[0]).toMatchObject({
      target: { kind: "token", id: String(old.token.id), name: "ERP" },
      changes: { replaced_by: { before: null, after: token.id }, overlap_hours: { before: null, after: 24 }, token: { changed: true } },
    });
    expect(audit.text).not.toContain(secret);
    expect(audit.text).not.toContain(old.secret);
  });

  it("with 0 hours: the old token is refused at once", async () => {
    const { as } = await ownedTeam();
    const old = (await as.post("/api/v1/tokens", { name: "Sync", scopes: ["history"] })).body.data;
    expect((await historyCall(old.secret)).status).toBe(200);
    const res = await as.post(`/api/v1/tokens/${old.token.id}/roll`, { overlap_hours: 0 });
    expect(res.status).toBe(201);
    expect(res.body.data.previous).toMatchObject({ state: "revoked", replaced_by: res.body.data.token.id });
    expect((await historyCall(old.secret)).body).toEqual(UNAUTHENTICATED);
    expect((await historyCall(res.body.data.secret)).status).toBe(200);
  });

  it("refuses a bad overlap and another team's token", async () => {
    const { as } = await ownedTeam();
    const { token } = (await as.post("/api/v1/tokens", { name: "X", scopes: ["send"] })).body.data;
    for (const overlap_hours of [-1, 169, 1.5, "24", null]) {
      const res = await as.post(`/api/v1/tokens/${token.id}/roll`, { overlap_hours });
      expect(res.status, String(overlap_hours)).toBe(422);
      expect(res.body.message).toBe(OVERLAP_INVALID);
    }
    const other = await ownedTeam();
    expect((await other.as.post(`/api/v1/tokens/${token.id}/roll`, { overlap_hours: 1 })).status).toBe(404);
  });
});

describe("expiry", () => {
  it("refuses an expired token with 401 and says so, even right after a success the process cached", async () => {
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    const { as } = await ownedTeam();
    const expiresAt = new Date(Date.now() + 3_000);
    const made = await as.post("/api/v1/tokens", { name: "Corto", scopes: ["history"], expires_at: expiresAt.toISOString() });
    expect(made.status).toBe(201);
    const { secret, token } = made.body.data;
    // The first use reads the row and caches it for TOKEN_CACHE_MS (10 s); the second is served from the cache.
    expect((await historyCall(secret)).status).toBe(200);
    expect((await historyCall(secret)).status).toBe(200);

    vi.setSystemTime(expiresAt.getTime() + 1);
    const res = await historyCall(secret);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: tokenExpiredMessage(expiresAt) });
    expect(res.body.message).toBe(`El token de API venció el ${expiresAt.toISOString()}: cree uno nuevo.`);

    expect((await as.get("/api/v1/tokens")).body.data.find((t: { id: number }) => t.id === token.id).state).toBe("expired");
    expect((await as.post(`/api/v1/tokens/${token.id}/roll`, { overlap_hours: 1 })).body).toEqual({ message: TOKEN_EXPIRED });
  });
});

describe("a token managing tokens (tokens_admin)", () => {
  it("hands on only the scopes it holds, rolls itself, and records itself as the creator", async () => {
    const { team } = await ownedTeam();
    const { id: adminId, token: admin } = await createToken({
      input: { teamId: team.id, name: "rotador", scopes: ["history", "tokens_admin"] },
    });
    const api = apiClient(server.url, admin);

    const narrower = await api.post("/api/v1/tokens", { name: "solo historial", scopes: ["history"] });
    expect(narrower.status).toBe(201);
    expect(narrower.body.data.token.created_by).toEqual({ kind: "token", id: adminId, name: "rotador" });

    const wider = await api.post("/api/v1/tokens", { name: "más", scopes: ["history", "send", "agents_admin"] });
    expect(wider.status).toBe(403);
    expect(wider.body).toEqual({ message: scopesNotHeld(["send", "agents_admin"]) });

    // Rolling makes a token with the rolled one's scopes: the same rule.
    const { id: sender } = await createToken({ input: { teamId: team.id, name: "envíos", scopes: ["send"] } });
    expect((await api.post(`/api/v1/tokens/${sender}/roll`, { overlap_hours: 1 })).body).toEqual({ message: scopesNotHeld(["send"]) });
    expect((await rowOf(sender)).replacedById).toBeNull();

    const self = await api.post(`/api/v1/tokens/${adminId}/roll`, { overlap_hours: 1 });
    expect(self.status).toBe(201);
    expect(self.body.data.token.scopes).toEqual(["history", "tokens_admin"]);
    // Revoking narrows nobody's power beyond the team's: allowed for any of its tokens.
    expect((await api.delete(`/api/v1/tokens/${sender}`)).status).toBe(200);

    const audit = await apiClient(server.url, team.token).get("/api/v1/audit?action=token.created");
    expect(audit.body.data[0].actor).toEqual({ kind: "token", id: adminId, name: "rotador" });
  });
});

describe("a token that expires, managing tokens", () => {
  it("never makes or rolls one that outlives it", async () => {
    const { team } = await ownedTeam();
    const own = new Date(Date.now() + 3600_000);
    const { token: admin } = await createToken({
      input: { teamId: team.id, name: "temporal", scopes: ["history", "tokens_admin"], expiresAt: own },
    });
    const api = apiClient(server.url, admin);
    expect((await api.post("/api/v1/tokens", { name: "eterno", scopes: ["history"] })).body).toEqual({ message: outlivesCaller(own) });
    const later = new Date(own.getTime() + 60_000).toISOString();
    expect((await api.post("/api/v1/tokens", { name: "después", scopes: ["history"], expires_at: later })).status).toBe(403);
    const sooner = new Date(own.getTime() - 60_000).toISOString();
    expect((await api.post("/api/v1/tokens", { name: "antes", scopes: ["history"], expires_at: sooner })).status).toBe(201);
    const { id: lasting } = await createToken({ input: { teamId: team.id, name: "duradero", scopes: ["history"] } });
    expect((await api.post(`/api/v1/tokens/${lasting}/roll`, { overlap_hours: 1 })).body).toEqual({ message: outlivesCaller(own) });
  });
});

describe("last_used_at", () => {
  it("is written after a use, not again by this process within the minute, and again after it", async () => {
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    const { as } = await ownedTeam();
    const { secret, token } = (await as.post("/api/v1/tokens", { name: "Uso", scopes: ["history"] })).body.data;
    await settleTokenTouches();
    expect((await rowOf(token.id)).lastUsedAt).toBeNull();

    expect((await historyCall(secret)).status).toBe(200);
    await settleTokenTouches();
    const first = (await rowOf(token.id)).lastUsedAt;
    expect(first).not.toBeNull();
    expect((await as.get("/api/v1/tokens")).body.data[0].last_used_at).toBe(first!.toISOString());

    // Moved back two minutes by hand, the database alone would take a new write: the process
    // does not send one within its minute.
    await (
      await getDb()
    )
      .update(apiTokens)
      .set({ lastUsedAt: sql`${apiTokens.lastUsedAt} - interval '2 minutes'` })
      .where(eq(apiTokens.id, token.id));
    const backdated = (await rowOf(token.id)).lastUsedAt!;
    for (let i = 0; i < 3; i++) expect((await historyCall(secret)).status).toBe(200);
    await settleTokenTouches();
    expect((await rowOf(token.id)).lastUsedAt).toEqual(backdated);

    vi.setSystemTime(Date.now() + 61_000);
    expect((await historyCall(secret)).status).toBe(200);
    await settleTokenTouches();
    expect((await rowOf(token.id)).lastUsedAt!.getTime()).toBeGreaterThan(backdated.getTime());
  });
});
