import { spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { DataDirBusyError, getDb } from "@/db/client";
import { agents, contacts, waNumbers } from "@/db/schema";
import { runAdmin } from "@/lib/admin/run";
import { registry } from "@/lib/admin/registry";
import { hashToken } from "@/lib/auth/tokens";
import { decryptJson } from "@/lib/crypto/secrets";
import { verifyPassword } from "@/lib/auth/password";
import { startServer, type TestServer } from "./helpers/server";
import { SCOPES } from "@/lib/auth/permissions";
import { apiClient } from "./helpers/client";
import { createTeam, uniqueNumber } from "./helpers/factories";

let server: TestServer;
let tmp: string;
beforeAll(async () => {
  server = await startServer();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "admin-cli-"));
});
afterAll(async () => {
  await server.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Runs the real script as `npm run admin` does, returning its stdout lines, stderr and exit code. */
function spawnAdmin(args: string[], env: Record<string, string>) {
  return new Promise<{ lines: string[]; stderr: string; code: number | null }>((resolve, reject) => {
    const child = spawn(path.resolve("node_modules/.bin/tsx"), ["--conditions=react-server", "scripts/admin.ts", ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ lines: out.split("\n").filter(Boolean), stderr: err, code }));
  });
}

const pgliteEnv = (dir: string) => ({ DATABASE_URL: "", PGLITE_DIR: dir, DATA_DIR: tmp });

// Each spawn costs a tsx start (about a second); a fresh PGlite folder adds its initdb and migrations.
describe("admin CLI, spawned", { timeout: 120_000 }, () => {
  it("prints exactly one JSON object per command on a fresh PGlite folder; the token is stored by hash only", async () => {
    const dir = path.join(tmp, "fresh");
    const team = await spawnAdmin(["team:create", "--name", "Equipo CLI"], pgliteEnv(dir));
    expect(team.code, team.stderr).toBe(0);
    expect(team.lines).toHaveLength(1);
    const created = JSON.parse(team.lines[0]);
    expect(created).toEqual({ id: expect.any(Number), name: "Equipo CLI" });

    const tok = await spawnAdmin(["token:create", "--team", String(created.id)], pgliteEnv(dir));
    expect(tok.code, tok.stderr).toBe(0);
    expect(tok.lines).toHaveLength(1);
    const { id, token } = JSON.parse(tok.lines[0]);
    expect(token).toMatch(/^wam_[A-Za-z0-9_-]{43}$/);

    // The CLI has exited and released the folder: read what it stored.
    const { PGlite } = await import("@electric-sql/pglite");
    const pg = new PGlite(dir);
    try {
      const { rows } = await pg.query<{ token_hash: string; team_id: number }>("select token_hash, team_id from api_tokens where id = $1", [
        id,
      ]);
      expect(rows).toEqual([{ token_hash: hashToken(token), team_id: created.id }]);
    } finally {
      await pg.close();
    }
  });

  it("refuses a PGlite folder held by another process with the Spanish message", async () => {
    const dir = path.join(tmp, "busy");
    // This test process is alive, so its pid in the lock file marks the folder as in use.
    fs.writeFileSync(`${dir}.lock`, String(process.pid));
    const res = await spawnAdmin(["team:create", "--name", "X"], pgliteEnv(dir));
    expect(res.code).toBe(1);
    expect(res.lines.map((l) => JSON.parse(l))).toEqual([{ error: new DataDirBusyError(dir, process.pid).message }]);
    expect(res.stderr).toContain("DataDirBusyError");
    expect(fs.existsSync(dir)).toBe(false);
  });

  const databaseUrl = process.env.DATABASE_URL;
  it(
    databaseUrl
      ? "a token created by the CLI against DATABASE_URL authenticates over HTTP"
      : "a token created by the CLI's code authenticates over HTTP (in process: PGlite in memory cannot be shared)",
    async () => {
      const team = await createTeam();
      const args = ["token:create", "--team", String(team.id), "--name", "cli"];
      const result = databaseUrl
        ? JSON.parse((await spawnAdmin(args, { DATABASE_URL: databaseUrl })).lines[0])
        : (await runAdmin(args)).output;
      expect(result).toEqual({ id: expect.any(Number), token: expect.stringMatching(/^wam_/), scopes: [...SCOPES] });
      expect((await apiClient(server.url, result.token).get("/api/v1/wa_numbers")).status).toBe(200);
    },
  );
});

describe("admin CLI, in process (same database as the test server)", () => {
  it("team:create, token:create (authenticates over HTTP), token:revoke (then 401)", async () => {
    const team = await runAdmin(["team:create", "--name", "Equipo Admin"]);
    expect(team).toEqual({ code: 0, output: { id: expect.any(Number), name: "Equipo Admin" } });
    const teamId = team.output.id as number;
    const tok = await runAdmin(["token:create", "--team", String(teamId)]);
    expect(tok.code).toBe(0);
    const api = apiClient(server.url, tok.output.token as string);
    expect((await api.get("/api/v1/wa_numbers")).body.data).toEqual([]);
    expect(await runAdmin(["token:revoke", "--id", String(tok.output.id)])).toEqual({
      code: 0,
      output: { id: tok.output.id, revoked: true },
    });
    expect((await api.get("/api/v1/wa_numbers")).status).toBe(401);
    expect(await runAdmin(["token:revoke", "--id", "2147483"])).toEqual({
      code: 1,
      output: { error: "El token con el ID: 2147483 no existe." },
    });
  });

  it("number:add encrypts cloud_api credentials and refuses a taken number", async () => {
    const team = await createTeam();
    const number = uniqueNumber();
    const res = await runAdmin([
      "number:add",
      "--team",
      String(team.id),
      "--number",
      `+${number}`,
      "--provider",
      "cloud_api",
      "--phone-number-id",
      `pn${number}`,
      "--business-account-id",
      "waba1",
      "--access-token",
      "EAAG-secret",
      "--app-secret",
      "app-secret-1",
      "--verify-token",
      "vt",
      "--mps",
      "20",
      "--display-name",
      "Ventas",
    ]);
    expect(res).toEqual({ code: 0, output: { id: expect.any(Number), number } });
    const db = await getDb();
    const [row] = await db
      .select()
      .from(waNumbers)
      .where(eq(waNumbers.id, res.output.id as number));
    expect(row).toMatchObject({
      teamId: team.id,
      provider: "cloud_api",
      phoneNumberId: `pn${number}`,
      messagesPerSecond: 20,
      displayName: "Ventas",
    });
    expect(row.credentials).not.toContain("EAAG-secret");
    expect(decryptJson(row.credentials!)).toEqual({ accessToken: "EAAG-secret", appSecret: "app-secret-1", verifyToken: "vt" });
    const again = await runAdmin(["number:add", "--team", String(team.id), "--number", number]);
    expect(again.code).toBe(1);
    expect(again.output.error).toBe(`El número ${number} (o su phone_number_id) ya está registrado.`);
    const cloudWithout = await runAdmin(["number:add", "--team", String(team.id), "--number", uniqueNumber(), "--provider", "cloud_api"]);
    expect(cloudWithout.output).toEqual({ error: "Con --provider cloud_api son obligatorias --phone-number-id y --access-token." });
  });

  it("template:add, label:add, contact:add, bot:add, campaign:add and agent:create", async () => {
    const team = await createTeam();
    const t = String(team.id);
    const file = path.join(tmp, "tpl.json");
    fs.writeFileSync(
      file,
      JSON.stringify({
        name: "aviso_envio",
        language: "es_CO",
        category: "UTILITY",
        components: [
          { type: "BODY", text: "Tu envío {{1}} salió hoy." },
          { type: "FOOTER", text: "Tienda" },
        ],
      }),
    );
    const tpl = await runAdmin(["template:add", "--team", t, "--file", file]);
    expect(tpl.code).toBe(0);
    expect(tpl.output).toMatchObject({ name: "aviso_envio", language: "es_CO", status: "APPROVED" });
    fs.writeFileSync(file, JSON.stringify({ name: "Mal Nombre", language: "es_CO", category: "UTILITY", components: [] }));
    expect((await runAdmin(["template:add", "--team", t, "--file", file])).code).toBe(1);
    fs.writeFileSync(file, "{no es json");
    expect((await runAdmin(["template:add", "--team", t, "--file", file])).output).toEqual({
      error: `El archivo ${file} no es un JSON válido.`,
    });

    const label = await runAdmin(["label:add", "--team", t, "--title", "VIP", "--bg", "#112233", "--description", "Clientes top"]);
    expect(label).toEqual({
      code: 0,
      output: { id: expect.any(Number), title: "VIP", description: "Clientes top", bg_color: "#112233", text_color: "#ffffff" },
    });
    expect((await runAdmin(["label:add", "--team", t, "--title", "X", "--bg", "rojo"])).output).toEqual({
      error: "La opción --bg debe ser un color #rrggbb.",
    });

    const contact = await runAdmin([
      "contact:add",
      "--team",
      t,
      "--number",
      "+57 300 111 2233",
      "--name",
      "Pepe",
      "--customer-id",
      "cus_pepe",
    ]);
    expect(contact.output).toMatchObject({ customer_number: "573001112233", customer_id: "cus_pepe", name: "Pepe" });

    const bot = await runAdmin([
      "bot:add",
      "--team",
      t,
      "--name",
      "Asistente",
      "--default",
      "--webhook-url",
      "https://bots.example.com/hook",
    ]);
    expect(bot.output).toMatchObject({
      name: "Asistente",
      is_default: true,
      webhook_url: "https://bots.example.com/hook",
      webhook_secret: expect.any(String),
    });
    const campaign = await runAdmin(["campaign:add", "--team", t, "--name", "Promo"]);
    expect(campaign.output).toMatchObject({ name: "Promo", webhook_url: null });

    const email = `Ana${Date.now()}${process.pid}@Example.com`;
    const agent = await runAdmin(["agent:create", "--team", t, "--email", email, "--name", "Ana", "--password", "clave-segura"]);
    expect(agent).toEqual({ code: 0, output: { id: expect.any(Number), email: email.toLowerCase(), role: "agent" } });
    const [row] = await (
      await getDb()
    )
      .select()
      .from(agents)
      .where(eq(agents.id, agent.output.id as number));
    expect(await verifyPassword("clave-segura", row.passwordHash)).toBe(true);
    expect((await runAdmin(["agent:create", "--team", t, "--email", email, "--name", "Ana", "--password", "clave-segura"])).output).toEqual(
      {
        error: `Ya existe un agente con el correo ${email.toLowerCase()}.`,
      },
    );
  });

  it("agent:create takes --role; token:create takes --scopes, and the server holds each to them", async () => {
    const team = await createTeam();
    const t = String(team.id);
    const email = `sup${Date.now()}${process.pid}@example.com`;
    const made = await runAdmin([
      "agent:create",
      "--team",
      t,
      "--email",
      email,
      "--name",
      "Sara",
      "--password",
      "clave-segura",
      "--role",
      "supervisor",
    ]);
    expect(made).toEqual({ code: 0, output: { id: expect.any(Number), email, role: "supervisor" } });
    expect(
      (await runAdmin(["agent:create", "--team", t, "--email", `x${email}`, "--name", "X", "--password", "clave-segura", "--role", "jefe"]))
        .output,
    ).toEqual({
      error: "La opción --role debe ser una de: owner, admin, supervisor, agent.",
    });

    const tok = await runAdmin(["token:create", "--team", t, "--scopes", "history, contacts"]);
    expect(tok.output).toEqual({ id: expect.any(Number), token: expect.stringMatching(/^wam_/), scopes: ["history", "contacts"] });
    const api = apiClient(server.url, tok.output.token as string);
    expect((await api.get("/api/v1/contacts")).status).toBe(200);
    const refused = await api.get("/api/v1/broadcasts");
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: "El token no tiene el permiso necesario: broadcasts." });
    expect((await runAdmin(["token:create", "--team", t, "--scopes", "send,todo"])).output).toEqual({
      error: `La opción --scopes admite una lista separada por comas de: ${SCOPES.join(", ")}.`,
    });
  });

  it("contact:add refuses a taken number or customer_id, leaves that contact as it was, and creates one of parallel adds", async () => {
    const t = String((await createTeam()).id);
    const phone = () => `57300${String(randomInt(0, 1e7)).padStart(7, "0")}`;
    const number = phone();
    const first = await runAdmin(["contact:add", "--team", t, "--number", number, "--name", "Primera", "--customer-id", `cus_${number}`]);
    expect(first).toEqual({
      code: 0,
      output: {
        id: expect.any(Number),
        name: "Primera",
        customer_number: number,
        customer_id: `cus_${number}`,
        labels: [],
        last_activity_at: null,
        marketing_opt_out: null,
      },
    });
    expect(await runAdmin(["contact:add", "--team", t, "--number", number, "--name", "Otra"])).toEqual({
      code: 1,
      output: { error: "Ya existe un contacto con ese número." },
    });
    expect(await runAdmin(["contact:add", "--team", t, "--number", phone(), "--name", "Otra", "--customer-id", `cus_${number}`])).toEqual({
      code: 1,
      output: { error: "Ya existe un contacto con ese customer_id." },
    });
    const db = await getDb();
    const rows = await db
      .select()
      .from(contacts)
      .where(eq(contacts.teamId, Number(t)));
    expect(rows.map((r) => [r.customerNumber, r.customerId, r.name])).toEqual([[number, `cus_${number}`, "Primera"]]);

    const fresh = phone();
    const parallel = await Promise.all(
      Array.from({ length: 5 }, (_, i) => runAdmin(["contact:add", "--team", t, "--number", fresh, "--name", `P${i}`])),
    );
    expect(parallel.filter((r) => r.code === 0)).toHaveLength(1);
    for (const r of parallel.filter((r) => r.code !== 0)) expect(r.output).toEqual({ error: "Ya existe un contacto con ese número." });
  });

  it("answers every mistake with one {error} and exit code 1", async () => {
    expect(await runAdmin(["nope"])).toEqual({ code: 1, output: { error: expect.stringMatching(/^Comando desconocido: nope\./) } });
    expect((await runAdmin([])).code).toBe(1);
    expect(await runAdmin(["team:create"])).toEqual({ code: 1, output: { error: "La opción --name es obligatoria." } });
    expect(await runAdmin(["team:create", "--name"])).toEqual({ code: 1, output: { error: "La opción --name requiere un valor." } });
    expect(await runAdmin(["team:create", "--nombre", "x"])).toEqual({ code: 1, output: { error: "Opción desconocida: --nombre." } });
    expect(await runAdmin(["label:add", "--team", "2000000000", "--title", "x"])).toEqual({
      code: 1,
      output: { error: "La opción --team debe ser un número entero positivo." },
    });
    expect(await runAdmin(["label:add", "--team", "199999999", "--title", "x"])).toEqual({
      code: 1,
      output: { error: "El equipo con el ID: 199999999 no existe." },
    });
    const help = await runAdmin(["help"]);
    expect(Object.keys(help.output.commands as object)).toEqual(Object.keys(registry));
  });
});
