import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb, rowsOf } from "@/db/client";
import { auditEvents, teams } from "@/db/schema";
import { eq } from "drizzle-orm";
import { pruneAudit } from "@/lib/audit/service";
import { runAdmin } from "@/lib/admin/run";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createAgent, createTeam } from "../helpers/factories";
import { agentSession } from "../helpers/send-factories";

/**
 * The audit trail (lib/audit, docs/features/audit.md): who changed what, from where, with the
 * fields before and after and never a secret's value; every sign-in; append-only; kept
 * AUDIT_RETENTION_DAYS; filtered and exported as CSV; each team sees only its own.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const COLORS = { bg_color: "#111111", text_color: "#ffffff" };

async function signIn(email: string, password: string, address = "203.0.113.7") {
  const res = await apiClient(server.url).post("/api/v1/auth/login", { email, password }, { "x-forwarded-for": address });
  return { res, cookie: /wa_session=[^;]*/.exec(res.headers.get("set-cookie") ?? "")?.[0] ?? "" };
}

describe("the audit trail", () => {
  it("records sign-ins, right and wrong, with the address, and the sign-out", async () => {
    const team = await createTeam();
    const agent = await createAgent(team.id, "clave-correcta-1");
    expect((await signIn(agent.email, "clave-equivocada")).res.status).toBe(422);
    const { cookie } = await signIn(agent.email, "clave-correcta-1");
    const session = apiClient(server.url);
    expect((await session.post("/api/v1/auth/logout", undefined, { cookie, "sec-fetch-site": "same-origin" })).status).toBe(200);

    const list = await apiClient(server.url, team.token).get("/api/v1/audit");
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: { action: string }) => e.action)).toEqual(["sign_out", "sign_in.succeeded", "sign_in.failed"]);
    const [, succeeded, failed] = list.body.data;
    expect(failed).toMatchObject({ actor: { kind: "agent", id: agent.id, name: agent.name }, ip: "203.0.113.7", changes: null });
    expect(succeeded.target).toEqual({ kind: "agent", id: String(agent.id), name: agent.name });
    expect(list.body.pagination).toEqual({ total_items: 3, items_per_page: 50, current_page: 1, total_pages: 1 });
  });

  it("records a label's creation, change and deletion with only the fields that changed, by the token that did it", async () => {
    const team = await createTeam();
    const api = apiClient(server.url, team.token);
    const created = await api.post("/api/v1/contacts/labels", { title: "VIP", bg_color: "#111111", text_color: "#ffffff" });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    expect((await api.patch(`/api/v1/contacts/labels/${id}`, { title: "Muy VIP", text_color: "#ffffff" })).status).toBe(200);
    // A change refused (a taken title) leaves no row: the trail is written in the change's transaction.
    await api.post("/api/v1/contacts/labels", { title: "Otra", ...COLORS });
    expect((await api.patch(`/api/v1/contacts/labels/${id}`, { title: "Otra" })).status).toBe(422);
    expect((await api.delete(`/api/v1/contacts/labels/${id}`)).status).toBe(200);

    const list = await api.get("/api/v1/audit?action=label.updated");
    expect(list.body.data).toHaveLength(1);
    const [updated] = list.body.data;
    expect(updated.actor).toEqual({ kind: "token", id: expect.any(Number), name: "test" });
    expect(updated.target).toEqual({ kind: "label", id: String(id), name: "Muy VIP" });
    expect(updated.changes).toEqual({ title: { before: "VIP", after: "Muy VIP" } });

    const all = (await api.get("/api/v1/audit")).body.data.map((e: { action: string }) => e.action);
    expect(all).toEqual(["label.deleted", "label.created", "label.updated", "label.created"]);
    const deleted = (await api.get("/api/v1/audit?action=label.deleted")).body.data[0];
    expect(deleted.changes.title).toEqual({ before: "Muy VIP", after: null });
  });

  it("never stores a secret's value: the CLI's token and number say only that they were set", async () => {
    const team = await createTeam();
    const run = async (argv: string[]) => {
      const outcome = await runAdmin(argv);
      expect(outcome.code, JSON.stringify(outcome.output)).toBe(0);
      return outcome.output;
    };
    const token = (await run(["token:create", "--team", String(team.id), "--name", "crm"])) as { id: number; token: string };
    await run(["token:revoke", "--id", String(token.id)]);
    await run([
      "number:add",
      "--team",
      String(team.id),
      "--number",
      `57300${Date.now() % 10_000_000}`.padEnd(12, "1"),
      "--provider",
      "cloud_api",
      "--phone-number-id",
      `pn-${Date.now()}`,
      "--access-token",
      "EAAG-muy-secreto",
      "--app-secret",
      "otro-secreto",
    ]);
    const list = await apiClient(server.url, team.token).get("/api/v1/audit");
    expect(list.body.data.map((e: { action: string }) => e.action)).toEqual(["number.added", "token.revoked", "token.created"]);
    for (const e of list.body.data) expect(e.actor).toEqual({ kind: "system", id: null, name: "CLI" });
    expect(list.body.data[2].changes.token).toEqual({ changed: true });
    expect(list.body.data[0].changes.access_token).toEqual({ changed: true });
    expect(list.body.data[0].changes.app_secret).toEqual({ changed: true });
    const stored = JSON.stringify(rowsOf(await (await getDb()).execute(sql`select * from audit_events where team_id = ${team.id}`)));
    expect(stored).not.toContain(token.token);
    expect(stored).not.toContain("EAAG-muy-secreto");
    expect(stored).not.toContain("otro-secreto");
  });

  it("filters by action, actor and days, refuses a bad filter in the contract's style, and exports CSV", async () => {
    const team = await createTeam();
    const api = apiClient(server.url, team.token);
    await api.post("/api/v1/contacts/labels", { title: '=HYPERLINK("x")', ...COLORS });
    await api.post("/api/v1/saved-replies", { shortcut: "hola", title: "Saludo", content: "Hola, {{name}}" });
    expect((await api.get("/api/v1/audit?actor=TES")).body.data).toHaveLength(2);
    expect((await api.get("/api/v1/audit?actor=nadie")).body.data).toHaveLength(0);
    expect((await api.get("/api/v1/audit?from=2000-01-01&to=2000-01-02")).body.data).toHaveLength(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await api.get(`/api/v1/audit?from=${today}&to=${today}`)).body.data).toHaveLength(2);

    const bad = await api.get("/api/v1/audit?action=borrar.todo");
    expect(bad.status).toBe(422);
    expect(bad.body.message).toMatch(/^El campo action debe ser una de: sign_in.succeeded/);
    const late = await api.get("/api/v1/audit?from=9999-12-31");
    expect(late.status).toBe(422);

    const csv = await api.get("/api/v1/audit?format=csv");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = csv.text
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("id,at,actor_kind,actor,ip,action,target_kind,target_id,target,changes");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain("saved_reply.created");
    // A title a spreadsheet would run as a formula is written as text.
    expect(lines[2]).toContain(`"'=HYPERLINK(""x"")"`);
  });

  it("records an agent created by the CLI (never the password) and a role changed by an owner", async () => {
    const team = await createTeam();
    const boss = await agentSession(team.id, { role: "owner", name: "Olga" });
    const made = await runAdmin([
      "agent:create",
      "--team",
      String(team.id),
      "--email",
      `nuevo${Date.now()}@example.com`,
      "--name",
      "Nuevo",
      "--password",
      "clave-muy-secreta-1",
    ]);
    expect(made.code, JSON.stringify(made.output)).toBe(0);
    const id = (made.output as { id: number }).id;
    expect((await apiClient(server.url).patch(`/api/v1/agents/${id}`, { role: "admin" }, boss.headers)).status).toBe(200);

    const list = await apiClient(server.url).get("/api/v1/audit", boss.headers);
    const byAction = Object.fromEntries(list.body.data.map((e: { action: string }) => [e.action, e]));
    expect(byAction["agent.role_changed"]).toMatchObject({
      actor: { kind: "agent", id: boss.agent.id, name: "Olga" },
      target: { kind: "agent", id: String(id), name: "Nuevo" },
      changes: { role: { before: "agent", after: "admin" } },
    });
    expect(byAction["agent.created"].changes.password).toEqual({ changed: true });
    expect(JSON.stringify(list.body)).not.toContain("clave-muy-secreta-1");
    // An agent's role may not read the trail (docs/roles.md): 403 with the role's message.
    const plain = await agentSession(team.id, { role: "agent" });
    expect((await apiClient(server.url).get("/api/v1/audit", plain.headers)).status).toBe(403);
  });

  it("shows each team only its own trail", async () => {
    const a = await createTeam();
    const b = await createTeam();
    await apiClient(server.url, a.token).post("/api/v1/contacts/labels", { title: "Solo de A", ...COLORS });
    expect((await apiClient(server.url, b.token).get("/api/v1/audit")).body.data).toEqual([]);
    expect((await apiClient(server.url, b.token).get("/api/v1/audit?format=csv")).text.trim().split("\r\n")).toHaveLength(1);
  });

  it("is append-only: no UPDATE, DELETE or TRUNCATE but the retention's and a removed team's", async () => {
    const team = await createTeam();
    await apiClient(server.url, team.token).post("/api/v1/contacts/labels", { title: "Algo", ...COLORS });
    const db = await getDb();
    // drizzle wraps the database's error ("Failed query: …"); the trigger's message is its cause.
    const refusal = async (write: Promise<unknown>) => {
      const err = (await write.then(
        () => null,
        (e: unknown) => e,
      )) as { message?: string; cause?: { message?: string } } | null;
      return err?.cause?.message ?? err?.message ?? "no error";
    };
    expect(await refusal(db.execute(sql`update audit_events set actor_label = 'otro' where team_id = ${team.id}`))).toMatch(/append-only/);
    expect(await refusal(db.execute(sql`delete from audit_events where team_id = ${team.id}`))).toMatch(/append-only/);
    expect(await refusal(db.execute(sql`truncate audit_events`))).toMatch(/append-only/);

    // The retention removes what is older than AUDIT_RETENTION_DAYS (365), every team's, and nothing
    // newer. Rows written 366 and 364 days ago (an insert may set its time: the trail forbids
    // changes, not that); the chore runs at today's time, so the other teams' rows of test files
    // running beside this one, all newer, stay (a clock moved a year on would take theirs too).
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000);
    for (const days of [366, 364])
      await db.insert(auditEvents).values({
        teamId: team.id,
        actorKind: "system",
        actorId: null,
        actorLabel: `hace ${days} días`,
        ip: null,
        action: "label.created",
        targetKind: null,
        targetId: null,
        targetLabel: null,
        changes: null,
        at: ago(days),
      });
    const labels = async () =>
      rowsOf<{ actor_label: string }>(
        await db.execute(sql`select actor_label from audit_events where team_id = ${team.id} order by at`),
      ).map((r) => r.actor_label);
    expect(await labels()).toHaveLength(3);
    expect(await pruneAudit()).toBeGreaterThanOrEqual(1);
    expect(await labels()).toEqual(["hace 364 días", expect.any(String)]);

    // A team's removal takes its trail with it.
    const gone = await createTeam();
    await apiClient(server.url, gone.token).post("/api/v1/contacts/labels", { title: "Algo", ...COLORS });
    await db.delete(teams).where(eq(teams.id, gone.id));
    expect(
      Number(rowsOf<{ n: string }>(await db.execute(sql`select count(*) as n from audit_events where team_id = ${gone.id}`))[0].n),
    ).toBe(0);
  });
});
