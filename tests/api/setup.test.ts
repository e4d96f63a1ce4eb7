import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { SETUP_DONE } from "@/lib/setup/schemas";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { emptyDatabaseUrl } from "../global-setup";

/**
 * The first run without the demo (docs/features/setup.md) needs a database with no team at all.
 * Without DATABASE_URL this file's in-memory PGlite is one (the suite's template is migrated,
 * never seeded: tests/global-setup.ts runs it with SEED_DEMO=0); on a server the suite's shared
 * database holds every other file's teams, so this file works in a database of its own, made and
 * migrated empty by tests/global-setup.ts before the run.
 */
let sharedUrl: string | undefined;
let server: TestServer;

beforeAll(async () => {
  if (process.env.DATABASE_URL) {
    sharedUrl = process.env.DATABASE_URL;
    const { closeDb } = await import("@/db/client");
    await closeDb();
    process.env.DATABASE_URL = emptyDatabaseUrl(sharedUrl);
  }
  server = await startServer();
});

afterAll(async () => {
  await server?.close();
  if (!sharedUrl) return;
  const { closeDb } = await import("@/db/client");
  await closeDb();
  process.env.DATABASE_URL = sharedUrl;
});

const db = async () => (await import("@/db/client")).getDb();
const rows = async <T>(q: ReturnType<typeof sql>) => (await import("@/db/client")).rowsOf<T>(await (await db()).execute(q));

const owner = (n: number) => ({
  team_name: `Tienda ${n}`,
  default_country: "co",
  name: `Dueña ${n}`,
  email: `Duena${n}@Tienda.test`,
  password: "clave-segura-123",
});

describe("first-run set-up", () => {
  it("is needed on an empty database, creates the team and its owner once (the concurrent second gets 409), then never again", async () => {
    const api = apiClient(server.url);
    expect(await rows(sql`select id from teams`)).toEqual([]);
    expect((await api.get("/api/v1/setup")).body).toEqual({ message: "Configuración inicial pendiente.", data: { needed: true } });

    // Bad input is refused while the set-up is open, and creates nothing.
    const bad = await api.post("/api/v1/setup", { team_name: "", name: "A", email: "no", password: "corta" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["email", "password", "team_name"]);
    const unknownCountry = await api.post("/api/v1/setup", { ...owner(0), default_country: "ZZ" });
    expect(unknownCountry.body).toEqual({
      message: "El país por defecto no es un código de país conocido.",
      errors: { default_country: ["El país por defecto no es un código de país conocido."] },
    });

    // Two at once: exactly one team.
    const [a, b] = await Promise.all([api.post("/api/v1/setup", owner(1)), api.post("/api/v1/setup", owner(2))]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const won = a.status === 201 ? a : b;
    const lost = a.status === 201 ? b : a;
    expect(lost.body).toEqual({ message: SETUP_DONE });
    const teams = await rows<{ id: number; name: string; default_country: string }>(sql`select id, name, default_country from teams`);
    expect(teams).toHaveLength(1);
    const n = won === a ? 1 : 2;
    expect(teams[0]).toMatchObject({ name: `Tienda ${n}`, default_country: "CO" });
    expect(won.body).toMatchObject({
      message: "Equipo creado. Sesión iniciada.",
      data: {
        team: { id: teams[0].id, name: `Tienda ${n}`, default_country: "CO" },
        agent: { name: `Dueña ${n}`, email: `duena${n}@tienda.test`, team_id: teams[0].id, role: "owner" },
      },
    });
    const agents = await rows<{ role: string; password_hash: string }>(sql`select role, password_hash from agents`);
    expect(agents).toHaveLength(1);
    expect(agents[0].role).toBe("owner");
    expect(agents[0].password_hash).toMatch(/^scrypt\$/);

    // Signed in: the cookie is a session of the owner, who may add the sandbox number at once.
    const cookie = won.headers.get("set-cookie")!.split(";")[0];
    expect(cookie).toMatch(/^wa_session=/);
    const me = await api.get("/api/v1/auth/me", { cookie });
    expect(me.body.data).toMatchObject({ role: "owner", team_id: teams[0].id });
    const sandbox = await api.post("/api/v1/numbers/sandbox", undefined, { cookie, "sec-fetch-site": "same-origin" });
    expect(sandbox.status, sandbox.text).toBe(201);
    expect(sandbox.body.data).toMatchObject({ provider: "sandbox", sandbox: true });
    // The owner can sign in with the password later.
    const login = await api.post("/api/v1/auth/login", { email: `duena${n}@tienda.test`, password: "clave-segura-123" });
    expect(login.status).toBe(200);

    // Afterwards: not needed, and any post is 409, whatever it carries.
    expect((await api.get("/api/v1/setup")).body.data).toEqual({ needed: false });
    expect((await api.post("/api/v1/setup", owner(3))).body).toEqual({ message: SETUP_DONE });
    const empty = await api.post("/api/v1/setup", {});
    expect(empty.status).toBe(409);
    expect(await rows(sql`select id from teams`)).toHaveLength(1);

    // The trail: the team and its owner made by the owner, then the sign-ins; the password never.
    const trail = await rows<{ action: string; actor_label: string; changes: unknown }>(
      sql`select action, actor_label, changes from audit_events where team_id = ${teams[0].id} order by id`,
    );
    expect(trail.map((r) => r.action)).toEqual(["team.created", "agent.created", "sign_in.succeeded", "number.added", "sign_in.succeeded"]);
    expect(trail[0]).toMatchObject({
      actor_label: `Dueña ${n}`,
      changes: { name: { before: null, after: `Tienda ${n}` }, default_country: { before: null, after: "CO" } },
    });
    expect(trail[1].changes).toMatchObject({ password: { changed: true }, role: { before: null, after: "owner" } });
    expect(JSON.stringify(trail)).not.toContain("clave-segura");
  });
});
