import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createAgent, createNumber, createTeam } from "../helpers/factories";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const BAD = "El correo o la contraseña no son correctos.";

async function signIn(email: string, password: string) {
  const res = await apiClient(server.url).post("/api/v1/auth/login", { email, password });
  const setCookie = res.headers.get("set-cookie") ?? "";
  const cookie = /wa_session=[^;]*/.exec(setCookie)?.[0] ?? "";
  return { res, setCookie, cookie };
}

describe("POST /api/v1/auth/login", () => {
  it("signs an agent in with an http-only SameSite cookie and answers who they are", async () => {
    const team = await createTeam();
    const agent = await createAgent(team.id, "clave-segura-1");
    const { res, setCookie, cookie } = await signIn(agent.email.toUpperCase(), "clave-segura-1");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: agent.id, name: agent.name, email: agent.email, team_id: team.id, role: "owner" });
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/);
    expect(cookie.length).toBeGreaterThan(40);

    const meRes = await apiClient(server.url).get("/api/v1/auth/me", { cookie });
    expect(meRes.status).toBe(200);
    expect(meRes.body.data).toEqual({ id: agent.id, name: agent.name, email: agent.email, team_id: team.id, role: "owner" });
  });

  it("marks the cookie Secure when the request came over https", async () => {
    const team = await createTeam();
    const agent = await createAgent(team.id, "clave-segura-2");
    const res = await apiClient(server.url).post(
      "/api/v1/auth/login",
      { email: agent.email, password: "clave-segura-2" },
      { "x-forwarded-proto": "https" },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toMatch(/; Secure/);
  });

  it("answers 422 with the same message for a wrong password and an unknown email", async () => {
    const team = await createTeam();
    const agent = await createAgent(team.id, "clave-segura-3");
    const wrong = await signIn(agent.email, "otra-clave");
    const unknown = await signIn(`nadie-${agent.id}@example.com`, "clave-segura-3");
    for (const r of [wrong, unknown]) {
      expect(r.res.status).toBe(422);
      expect(r.res.body).toEqual({ message: BAD, errors: { email: [BAD] } });
      expect(r.setCookie).toBe("");
    }
  });

  it("answers 422 naming the missing field", async () => {
    const res = await apiClient(server.url).post("/api/v1/auth/login", { email: "a@b.c" });
    expect(res.status).toBe(422);
    expect(res.body.errors.password).toBeDefined();
  });
});

describe("session cookie on /api/v1", () => {
  it("reads the agent's own team's rows and never another team's", async () => {
    const team = await createTeam();
    const other = await createTeam();
    const mine = await createNumber(team.id);
    await createNumber(other.id);
    const agent = await createAgent(team.id);
    const { cookie } = await signIn(agent.email, agent.password);
    const res = await apiClient(server.url).get("/api/v1/wa_numbers", { cookie });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([mine]);
  });

  it("refuses a cross-site state-changing request made with the cookie (403) and accepts a same-origin one", async () => {
    const team = await createTeam();
    const agent = await createAgent(team.id);
    const { cookie } = await signIn(agent.email, agent.password);
    const cross = await apiClient(server.url).post("/api/v1/auth/logout", undefined, {
      cookie,
      "sec-fetch-site": "cross-site",
      origin: "https://evil.example",
    });
    expect(cross.status).toBe(403);
    expect(cross.body).toEqual({ message: "Solicitud de otro origen rechazada." });
    const noOrigin = await apiClient(server.url).post("/api/v1/auth/logout", undefined, { cookie });
    expect(noOrigin.status).toBe(403);
    // The session survived both refused attempts.
    expect((await apiClient(server.url).get("/api/v1/auth/me", { cookie })).status).toBe(200);
    const same = await apiClient(server.url).post("/api/v1/auth/logout", undefined, { cookie, "sec-fetch-site": "same-origin" });
    expect(same.status).toBe(200);
  });
});

describe("POST /api/v1/auth/logout and GET /api/v1/auth/me", () => {
  it("ends the session: the cookie stops working and is cleared", async () => {
    const team = await createTeam();
    const agent = await createAgent(team.id);
    const { cookie } = await signIn(agent.email, agent.password);
    const out = await apiClient(server.url).post("/api/v1/auth/logout", undefined, { cookie, "sec-fetch-site": "same-origin" });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toMatch(/wa_session=; .*Max-Age=0/);
    const after = await apiClient(server.url).get("/api/v1/wa_numbers", { cookie });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ message: "Unauthenticated." });
  });

  it("answers 401 without a session or with a forged one", async () => {
    expect((await apiClient(server.url).get("/api/v1/auth/me")).status).toBe(401);
    const forged = await apiClient(server.url).get("/api/v1/auth/me", { cookie: "wa_session=forged-token" });
    expect(forged.status).toBe(401);
    expect((await apiClient(server.url).post("/api/v1/auth/logout")).status).toBe(401);
  });

  it("does not let one team's agent session act as another agent (me is always the session's own agent)", async () => {
    const a = await createTeam();
    const b = await createTeam();
    const agentA = await createAgent(a.id);
    const agentB = await createAgent(b.id);
    const { cookie } = await signIn(agentA.email, agentA.password);
    const res = await apiClient(server.url).get("/api/v1/auth/me", { cookie });
    expect(res.body.data.id).toBe(agentA.id);
    expect(res.body.data.team_id).not.toBe(agentB.teamId);
  });

  it("answers 404 on /me for a bearer token, which has no agent", async () => {
    const team = await createTeam();
    const res = await apiClient(server.url, team.token).get("/api/v1/auth/me");
    expect(res.status).toBe(404);
  });
});
