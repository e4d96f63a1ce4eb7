import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb, rowsOf } from "@/db/client";
import { listNumberSettingsResponse, numberCheckResponse, numberDisabled, NUMBER_NOT_FOUND } from "@/lib/numbers/settings-schemas";
import { WA_NUMBER_NOT_REGISTERED } from "@/lib/numbers/service";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createTeam, createTemplate, uniqueNumber } from "../helpers/factories";
import { agentSession } from "../helpers/send-factories";
import { startFakeGraph, type FakeGraph } from "../fakes/graph";

/**
 * The numbers as settings (docs/features/numbers.md) over HTTP: a Cloud API number added from the
 * page's form, listed without its secrets, checked against the fake Graph API (Meta's answer,
 * and Meta's 190 for a bad token in words), disabled (sends refused 422) and enabled again.
 */
let server: TestServer;
let graph: FakeGraph;
const savedGraphUrl = process.env.GRAPH_API_BASE_URL;

beforeAll(async () => {
  [server, graph] = await Promise.all([startServer(), startFakeGraph()]);
  process.env.GRAPH_API_BASE_URL = graph.url;
});
afterAll(async () => {
  process.env.GRAPH_API_BASE_URL = savedGraphUrl;
  await Promise.all([server.close(), graph.close()]);
});

const SECRETS = { access_token: "EAAG-test-token-abcdef123456", app_secret: "a1b2c3d4e5f60718293a4b5c6d7e8f90" };

async function auditOf(teamId: number) {
  return rowsOf<{ action: string; changes: unknown; actor_label: string }>(
    await (await getDb()).execute(sql`select action, changes, actor_label from audit_events where team_id = ${teamId} order by id`),
  );
}

describe("numbers as settings", () => {
  it("adds a Cloud API number, lists it without secrets, verifies it with Meta, disables and enables it", async () => {
    const team = await createTeam();
    const owner = await agentSession(team.id, { role: "owner", name: "Olga" });
    const api = apiClient(server.url);
    const digits = uniqueNumber();
    const phoneNumberId = String(Date.now()) + "01";

    // Create: the form's fields, the number typed as E.164 with + and spaces.
    const created = await api.post(
      "/api/v1/numbers",
      {
        display_name: "Ventas",
        phone_number: `+${digits.slice(0, 2)} ${digits.slice(2)}`,
        phone_number_id: phoneNumberId,
        waba_id: "102290129340398",
        ...SECRETS,
        messages_per_second: 20,
      },
      owner.headers,
    );
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.id;
    expect(created.body.data).toMatchObject({
      number: digits,
      display_name: "Ventas",
      provider: "cloud_api",
      sandbox: false,
      phone_number_id: phoneNumberId,
      waba_id: "102290129340398",
      messages_per_second: 20,
      disabled: false,
      credentials: { access_token: true, app_secret: true, verify_token: true },
      webhook: {
        callback_url: "http://app.test/api/v1/webhooks/whatsapp",
        verify_token: expect.any(String),
        verify_token_source: "number",
      },
    });

    // The same number again, by another team: taken (numbers are unique across the service).
    const otherTeam = await createTeam();
    const other = await agentSession(otherTeam.id, { role: "admin" });
    const again = await api.post(
      "/api/v1/numbers",
      { display_name: "Otro", phone_number: digits, phone_number_id: "999", waba_id: "1", ...SECRETS },
      other.headers,
    );
    expect(again.status).toBe(422);
    expect(again.body.errors.phone_number).toEqual([`El número ${digits} ya está registrado.`]);

    // The list never carries a secret's value, only whether it is set; the verify token is for Meta's dashboard.
    const list = await api.get("/api/v1/numbers", owner.headers);
    expect(list.status).toBe(200);
    const parsed = listNumberSettingsResponse.safeParse(list.body);
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(parsed.data).toEqual(list.body);
    expect(list.body.data.map((n: { id: number }) => n.id)).toEqual([id]);
    expect(list.text).not.toContain(SECRETS.access_token);
    expect(list.text).not.toContain(SECRETS.app_secret);
    const stored = JSON.stringify(rowsOf(await (await getDb()).execute(sql`select credentials from wa_numbers where id = ${id}`)));
    expect(stored).not.toContain(SECRETS.access_token);
    // Another team sees none of it, and its PATCH of this id is a 404.
    expect((await api.get("/api/v1/numbers", other.headers)).body.data).toEqual([]);
    expect((await api.patch(`/api/v1/numbers/${id}`, { disabled: true }, other.headers)).body).toEqual({ message: NUMBER_NOT_FOUND });

    // Verify: Meta answers with the number's token.
    graph.addPhoneNumber(phoneNumberId, {
      token: SECRETS.access_token,
      expiredTokens: ["EAAG-expired"],
      display_phone_number: "+57 300 123 4567",
      verified_name: "Tienda Sol",
      quality_rating: "GREEN",
      messaging_limit_tier: "TIER_1K",
    });
    const ok = await api.post(`/api/v1/numbers/${id}/verify`, undefined, owner.headers);
    expect(ok.status, ok.text).toBe(200);
    expect(numberCheckResponse.safeParse(ok.body).error?.issues ?? []).toEqual([]);
    expect(ok.body).toMatchObject({
      message: "Número verificado con Meta.",
      data: {
        verified: true,
        sandbox: false,
        display_phone_number: "+57 300 123 4567",
        verified_name: "Tienda Sol",
        quality_rating: "GREEN",
        messaging_limit_tier: "TIER_1K",
        error: null,
        number: { verified_name: "Tienda Sol", quality_rating: "GREEN", messaging_limit_tier: "TIER_1K", verified_at: expect.any(String) },
      },
    });
    const call = graph.requests.find((r) => r.method === "GET" && r.path === `/v21.0/${phoneNumberId}`)!;
    expect(call.headers.authorization).toBe(`Bearer ${SECRETS.access_token}`);

    // A bad token: Meta's 190 as it came, and in words.
    const rotated = await api.patch(`/api/v1/numbers/${id}`, { access_token: "EAAG-expired" }, owner.headers);
    expect(rotated.status).toBe(200);
    expect(rotated.text).not.toContain("EAAG-expired");
    const bad = await api.post(`/api/v1/numbers/${id}/verify`, undefined, owner.headers);
    expect(bad.status).toBe(200);
    expect(bad.body.data).toMatchObject({
      verified: false,
      error: {
        kind: "meta",
        code: 190,
        subcode: 463,
        type: "OAuthException",
        message: "Error validating access token: Session has expired on Tuesday, 01-Dec-26 10:00:00 PST.",
        fbtrace_id: "AxYzFaKe463",
      },
      // What the earlier check stored is kept.
      number: { verified_name: "Tienda Sol", quality_rating: "GREEN" },
    });
    expect(bad.body.message).toBe(
      "Meta rechazó la verificación: El token de acceso no es válido o caducó (genere otro en Meta y guárdelo) " +
        "(190: Error validating access token: Session has expired on Tuesday, 01-Dec-26 10:00:00 PST.).",
    );

    // Disable: every send from it is refused with the 422 that says why; enable: accepted again.
    const template = await createTemplate(team.id);
    const send = () =>
      apiClient(server.url, team.token).post("/api/v1/message_templates/send", {
        wa_number: digits,
        destination: "+57 300 123 4567",
        template_name: template.name,
        header_param: { key: "1", value: "Ana" },
        body_params: [
          { key: "1", value: "A-77" },
          { key: "2", value: "martes" },
        ],
      });
    const off = await api.patch(`/api/v1/numbers/${id}`, { disabled: true }, owner.headers);
    expect(off.body.data).toMatchObject({ disabled: true, disabled_at: expect.any(String) });
    const refused = await send();
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ message: numberDisabled(digits), errors: { wa_number: [numberDisabled(digits)] } });
    // The team's list says so, and the send form offers only the numbers that are not.
    const listed = async () =>
      (await apiClient(server.url, team.token).get("/api/v1/wa_numbers?per_page=100")).body.data.find(
        (n: { number: string }) => n.number === digits,
      );
    expect(await listed()).toMatchObject({ disabled: true });
    // An unknown number keeps the contract's text.
    const unknown = await apiClient(server.url, team.token).post("/api/v1/message_templates/send", {
      wa_number: uniqueNumber(),
      destination: "+57 300 123 4567",
      template_name: template.name,
    });
    expect(unknown.body.message).toBe(WA_NUMBER_NOT_REGISTERED);
    const on = await api.patch(`/api/v1/numbers/${id}`, { disabled: false, display_name: "Ventas Bogotá" }, owner.headers);
    expect(on.body.data).toMatchObject({ disabled: false, disabled_at: null, display_name: "Ventas Bogotá" });
    expect(await listed()).toMatchObject({ disabled: false });
    const accepted = await send();
    expect(accepted.status, accepted.text).toBe(200);

    // The trail: each change by its name, secrets only as "changed", never their values.
    const trail = await auditOf(team.id);
    expect(trail.map((r) => r.action)).toEqual([
      "number.added",
      "number.verified",
      "number.updated",
      "number.verified",
      "number.disabled",
      "number.enabled",
      "number.updated",
    ]);
    expect(trail.every((r) => r.actor_label === "Olga")).toBe(true);
    expect(trail[0].changes).toMatchObject({
      access_token: { changed: true },
      app_secret: { changed: true },
      verify_token: { changed: true },
    });
    expect(trail[2].changes).toEqual({ access_token: { changed: true } });
    expect(trail[6].changes).toEqual({ display_name: { before: "Ventas", after: "Ventas Bogotá" } });
    expect(JSON.stringify(trail)).not.toMatch(/EAAG|a1b2c3d4/);
  });

  it("makes the team's sandbox number once, which verifies by itself; refuses credentials for it and bad input", async () => {
    const team = await createTeam();
    const admin = await agentSession(team.id, { role: "admin" });
    const api = apiClient(server.url);
    const made = await api.post("/api/v1/numbers/sandbox", undefined, admin.headers);
    expect(made.status, made.text).toBe(201);
    expect(made.body.data).toMatchObject({
      number: `1555${String(team.id).padStart(7, "0")}`,
      provider: "sandbox",
      sandbox: true,
      credentials: { access_token: false, app_secret: false, verify_token: false },
      webhook: { verify_token: null, verify_token_source: null },
    });
    expect((await api.post("/api/v1/numbers/sandbox", undefined, admin.headers)).status).toBe(409);

    const requestsBefore = graph.requests.length;
    const check = await api.post(`/api/v1/numbers/${made.body.data.id}/verify`, undefined, admin.headers);
    expect(check.body).toMatchObject({
      message: "Número de pruebas: responde el propio servicio, sin llamar a Meta.",
      data: { verified: true, sandbox: true, display_phone_number: `+${made.body.data.number}`, verified_name: "Número de pruebas" },
    });
    expect(graph.requests.length).toBe(requestsBefore);

    const creds = await api.patch(`/api/v1/numbers/${made.body.data.id}`, { access_token: "x" }, admin.headers);
    expect(creds.status).toBe(422);
    const empty = await api.patch(`/api/v1/numbers/${made.body.data.id}`, {}, admin.headers);
    expect(empty.body.message).toBe("Debe indicar al menos un campo a modificar.");
    const bad = await api.post(
      "/api/v1/numbers",
      { display_name: "", phone_number: "12", phone_number_id: "abc", waba_id: "1", access_token: "t" },
      admin.headers,
    );
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["display_name", "phone_number", "phone_number_id"]);
    // A supervisor reads the send catalogue, not the settings.
    const supervisor = await agentSession(team.id, { role: "supervisor" });
    expect((await api.get("/api/v1/numbers", supervisor.headers)).status).toBe(403);
    expect((await api.get("/api/v1/wa_numbers", supervisor.headers)).status).toBe(200);
  });

  it("says in words that Meta could not be reached", async () => {
    const team = await createTeam();
    const owner = await agentSession(team.id, { role: "owner" });
    const api = apiClient(server.url);
    const created = await api.post(
      "/api/v1/numbers",
      { display_name: "Soporte", phone_number: uniqueNumber(), phone_number_id: `${Date.now()}02`, waba_id: "7", ...SECRETS },
      owner.headers,
    );
    expect(created.status, created.text).toBe(201);
    // A closed port: refused before a byte left.
    const closed = await startFakeGraph();
    await closed.close();
    process.env.GRAPH_API_BASE_URL = closed.url;
    try {
      const res = await api.post(`/api/v1/numbers/${created.body.data.id}/verify`, undefined, owner.headers);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ verified: false, error: { kind: "network", code: null } });
      expect(res.body.message).toMatch(/^No se pudo contactar con la API Graph de Meta \(Network error: /);
    } finally {
      process.env.GRAPH_API_BASE_URL = graph.url;
    }
  });
});
