import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createContact, createNumber, createTeam } from "../helpers/factories";
import { createConversation, insertMessages, minuteSeries } from "../helpers/history-factories";
import { WA_NUMBER_NOT_REGISTERED } from "@/lib/numbers/service";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
afterEach(() => {
  delete process.env.APP_TIMEZONE;
  delete process.env.HISTORY_MAX_RANGE_DAYS;
});

const RECORD_KEYS = [
  "agent_id",
  "agent_name",
  "created_at",
  "customer_id",
  "customer_number",
  "direction",
  "id",
  "payload",
  "sender",
  "status",
  "timestamp",
  "type",
].sort();

type Conv = Awaited<ReturnType<typeof createConversation>>;

function historyUrl(conv: Conv, params: Record<string, string | undefined>, channel = "whatsapp") {
  const q = new URLSearchParams();
  const all = { customer_source: conv.contact.customerNumber!, wa_number: conv.number.number, ...params };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) q.set(k, v);
  return `/api/v1/messages/${channel}/history?${q}`;
}

function get(conv: Conv, params: Record<string, string | undefined>, token = conv.team.token) {
  return apiClient(server.url, token).get(historyUrl(conv, params));
}

describe("GET /api/v1/messages/whatsapp/history", () => {
  it("returns the records of 2.4 under data, newest first, with pagination null", async () => {
    const conv = await createConversation();
    const [inbound, outbound] = await insertMessages(conv, [
      { createdAt: new Date("2026-03-10T12:00:00Z"), payload: { text: "Hola" } },
      {
        createdAt: new Date("2026-03-10T12:05:30Z"),
        sender: "AGENT",
        direction: "OUTBOUND",
        status: "DELIVERED",
        customerNumber: null,
        agentId: 7,
        agentName: "Ana",
        payload: { text: "¿En qué le ayudo?" },
      },
    ]);
    const res = await get(conv, { from_date: "2026-03-10", to_date: "2026-03-10" });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["data", "message", "pagination"]);
    expect(res.body.message).toBe("Historial de mensajes obtenido correctamente.");
    expect(res.body.pagination).toBeNull();
    expect(res.body.data).toEqual([
      {
        id: outbound.id,
        customer_number: null,
        customer_id: conv.contact.customerId,
        sender: "AGENT",
        direction: "OUTBOUND",
        type: "text",
        status: "DELIVERED",
        created_at: "2026-03-10 12:05:30",
        timestamp: Date.UTC(2026, 2, 10, 12, 5, 30) / 1000,
        payload: { text: "¿En qué le ayudo?" },
        agent_id: 7,
        agent_name: "Ana",
      },
      {
        id: inbound.id,
        customer_number: conv.contact.customerNumber,
        customer_id: conv.contact.customerId,
        sender: "CUSTOMER",
        direction: "INBOUND",
        type: "text",
        status: "RECEIVED",
        created_at: "2026-03-10 12:00:00",
        timestamp: Date.UTC(2026, 2, 10, 12, 0, 0) / 1000,
        payload: { text: "Hola" },
        agent_id: 0,
        agent_name: null,
      },
    ]);
    for (const r of res.body.data) expect(Object.keys(r).sort()).toEqual(RECORD_KEYS);
  });

  it("orders by id ASC or DESC (case-insensitive) and refuses other orders", async () => {
    const conv = await createConversation();
    const rows = await insertMessages(conv, minuteSeries("2026-03-10T08:00:00Z", 4));
    const ids = rows.map((r) => r.id);
    const asc = await get(conv, { from_date: "2026-03-10", to_date: "2026-03-10", order: "ASC" });
    expect(asc.body.data.map((r: any) => r.id)).toEqual(ids);
    const lower = await get(conv, { from_date: "2026-03-10", to_date: "2026-03-10", order: "asc" });
    expect(lower.body.data.map((r: any) => r.id)).toEqual(ids);
    const desc = await get(conv, { from_date: "2026-03-10", to_date: "2026-03-10", order: "DESC" });
    expect(desc.body.data.map((r: any) => r.id)).toEqual([...ids].reverse());
    const bad = await get(conv, { from_date: "2026-03-10", order: "UP" });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({
      message: "El campo order debe ser ASC o DESC.",
      errors: { order: ["El campo order debe ser ASC o DESC."] },
    });
  });

  it("paginates with with_pagination=1: page contents and the pagination object", async () => {
    const conv = await createConversation();
    const rows = await insertMessages(conv, minuteSeries("2026-03-10T08:00:00Z", 5));
    const ids = rows.map((r) => r.id);
    const p2 = await get(conv, {
      from_date: "2026-03-10",
      to_date: "2026-03-11",
      with_pagination: "1",
      per_page: "2",
      page: "2",
      order: "ASC",
    });
    expect(p2.status).toBe(200);
    expect(p2.body.data.map((r: any) => r.id)).toEqual(ids.slice(2, 4));
    expect(p2.body.pagination).toEqual({ total_items: 5, items_per_page: 2, current_page: 2, total_pages: 3 });
    const p3 = await get(conv, { from_date: "2026-03-10", to_date: "2026-03-11", with_pagination: "1", per_page: "2", page: "3" });
    expect(p3.body.data.map((r: any) => r.id)).toEqual([ids[0]]);
    const past = await get(conv, { from_date: "2026-03-10", to_date: "2026-03-11", with_pagination: "1", per_page: "2", page: "9" });
    expect(past.body.data).toEqual([]);
    expect(past.body.pagination).toEqual({ total_items: 5, items_per_page: 2, current_page: 9, total_pages: 3 });
    const defaults = await get(conv, { from_date: "2026-03-10", to_date: "2026-03-11", with_pagination: "1" });
    expect(defaults.body.pagination).toEqual({ total_items: 5, items_per_page: 50, current_page: 1, total_pages: 1 });
    // Without pagination, per_page and page are ignored and everything comes back.
    const off = await get(conv, { from_date: "2026-03-10", to_date: "2026-03-11", with_pagination: "0", per_page: "2", page: "2" });
    expect(off.body.data).toHaveLength(5);
    expect(off.body.pagination).toBeNull();
  });

  it("validates per_page, page and with_pagination with Spanish messages", async () => {
    const conv = await createConversation();
    const base = { from_date: "2026-03-10", with_pagination: "1" };
    const cases: [Record<string, string>, string, string][] = [
      [{ per_page: "0" }, "per_page", "El campo per_page debe ser al menos 1."],
      [{ per_page: "101" }, "per_page", "El campo per_page no puede ser mayor a la cantidad máxima permitida de 100."],
      [{ per_page: "abc" }, "per_page", "El parámetro page/per_page debe ser un número entero."],
      [{ page: "0" }, "page", "El campo page debe ser al menos 1."],
      [{ page: "1.5" }, "page", "El parámetro page/per_page debe ser un número entero."],
      [{ with_pagination: "2" }, "with_pagination", "El campo with_pagination debe ser 0 o 1."],
    ];
    for (const [params, field, message] of cases) {
      const res = await get(conv, { ...base, ...params });
      expect(res.status, JSON.stringify(params)).toBe(422);
      expect(res.body).toEqual({ message, errors: { [field]: [message] } });
    }
  });

  it("requires customer_source, wa_number and from_date", async () => {
    const conv = await createConversation();
    const api = apiClient(server.url, conv.team.token);
    const none = await api.get("/api/v1/messages/whatsapp/history");
    expect(none.status).toBe(422);
    expect(none.body.errors).toEqual({
      customer_source: ["El campo customer_source es obligatorio."],
      wa_number: ["El campo wa_number es obligatorio."],
      from_date: ["El campo from_date es obligatorio."],
    });
    expect(none.body.message).toBe("El campo customer_source es obligatorio.");
    const blank = await get(conv, { from_date: "2026-03-10", customer_source: "  " });
    expect(blank.body).toEqual({
      message: "El campo customer_source es obligatorio.",
      errors: { customer_source: ["El campo customer_source es obligatorio."] },
    });
  });

  it("refuses malformed and impossible dates", async () => {
    const conv = await createConversation();
    const fromMsg = "El campo from_date debe ser una fecha válida con el formato YYYY-MM-DD o YYYY-MM-DD HH:mm:ss.";
    const toMsg = "El campo to_date debe ser una fecha válida con el formato YYYY-MM-DD o YYYY-MM-DD HH:mm:ss.";
    for (const bad of [
      "2026-02-30",
      "2025-02-29",
      "2026-13-01",
      "2026-1-5",
      "2026-01-01T10:00:00",
      "2026-01-01 24:00:00",
      "2026-01-01 10:61:00",
      "ayer",
      "",
    ]) {
      const res = await get(conv, { from_date: bad });
      expect(res.status, bad).toBe(422);
      expect(res.body, bad).toEqual({ message: fromMsg, errors: { from_date: [fromMsg] } });
    }
    const to = await get(conv, { from_date: "2026-02-01", to_date: "2026-02-29" });
    expect(to.body).toEqual({ message: toMsg, errors: { to_date: [toMsg] } });
    // A real leap day is fine.
    expect((await get(conv, { from_date: "2024-02-29", to_date: "2024-02-29 23:00:00" })).status).toBe(200);
  });

  it("refuses from_date after to_date and ranges above the maximum (HISTORY_MAX_RANGE_DAYS)", async () => {
    const conv = await createConversation();
    const after = await get(conv, { from_date: "2026-03-10 10:00:01", to_date: "2026-03-10 10:00:00" });
    expect(after.status).toBe(422);
    expect(after.body).toEqual({
      message: "La fecha from_date no puede ser posterior a to_date.",
      errors: { from_date: ["La fecha from_date no puede ser posterior a to_date."] },
    });
    expect((await get(conv, { from_date: "2026-03-10", to_date: "2026-03-09" })).status).toBe(422);
    // The same day as both bounds is a valid one-day range.
    expect((await get(conv, { from_date: "2026-03-10", to_date: "2026-03-10" })).status).toBe(200);

    const tooLong = await get(conv, { from_date: "2026-01-01", to_date: "2026-04-01" });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body).toEqual({
      message: "El rango de fechas no puede superar los 90 días.",
      errors: { from_date: ["El rango de fechas no puede superar los 90 días."] },
    });
    expect((await get(conv, { from_date: "2026-01-01", to_date: "2026-03-31" })).status).toBe(200);
    expect((await get(conv, { from_date: "2026-01-01", to_date: "2026-04-01 00:00:00" })).status).toBe(200);
    // Without to_date the window ends now.
    expect((await get(conv, { from_date: "2000-01-01" })).body.message).toBe("El rango de fechas no puede superar los 90 días.");

    process.env.HISTORY_MAX_RANGE_DAYS = "7";
    const custom = await get(conv, { from_date: "2026-03-01", to_date: "2026-03-09" });
    expect(custom.body.message).toBe("El rango de fechas no puede superar los 7 días.");
    expect((await get(conv, { from_date: "2026-03-01", to_date: "2026-03-07" })).status).toBe(200);
  });

  it("a day-form to_date covers up to 23:59:59 and excludes the next day's 00:00:00", async () => {
    const conv = await createConversation();
    const [before, first, last, lastFraction, nextDay] = await insertMessages(conv, [
      { createdAt: new Date("2026-03-09T23:59:59Z") },
      { createdAt: new Date("2026-03-10T00:00:00Z") },
      { createdAt: new Date("2026-03-11T23:59:59Z") },
      { createdAt: new Date("2026-03-11T23:59:59.600Z") },
      { createdAt: new Date("2026-03-12T00:00:00Z") },
    ]);
    const day = await get(conv, { from_date: "2026-03-10", to_date: "2026-03-11", order: "ASC" });
    expect(day.body.data.map((r: any) => r.id)).toEqual([first.id, last.id, lastFraction.id]);
    expect(day.body.data[2].created_at).toBe("2026-03-11 23:59:59");

    const exact = await get(conv, { from_date: "2026-03-09 23:59:59", to_date: "2026-03-11 23:59:58", order: "ASC" });
    expect(exact.body.data.map((r: any) => r.id)).toEqual([before.id, first.id]);
    const inclusive = await get(conv, { from_date: "2026-03-10 00:00:01", to_date: "2026-03-12 00:00:00", order: "ASC" });
    expect(inclusive.body.data.map((r: any) => r.id)).toEqual([last.id, lastFraction.id, nextDay.id]);
  });

  it("without to_date the window ends now", async () => {
    const conv = await createConversation();
    const now = Date.now();
    const [recent] = await insertMessages(conv, [{ createdAt: new Date(now - 3_600_000) }, { createdAt: new Date(now + 3 * 3_600_000) }]);
    const from = new Date(now - 86_400_000).toISOString().slice(0, 10);
    const res = await get(conv, { from_date: from });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: any) => r.id)).toEqual([recent.id]);
  });

  it("uses APP_TIMEZONE for created_at and for the date filters; timestamp stays Unix seconds", async () => {
    const conv = await createConversation();
    // 03:00 UTC on the 10th is 22:00 of the 9th in Bogotá (UTC-5, no daylight saving).
    const [msg] = await insertMessages(conv, [{ createdAt: new Date("2026-03-10T03:00:00Z") }]);
    const utc = await get(conv, { from_date: "2026-03-10", to_date: "2026-03-10" });
    expect(utc.body.data.map((r: any) => [r.id, r.created_at])).toEqual([[msg.id, "2026-03-10 03:00:00"]]);

    process.env.APP_TIMEZONE = "America/Bogota";
    const bogotaTenth = await get(conv, { from_date: "2026-03-10", to_date: "2026-03-10" });
    expect(bogotaTenth.body.data).toEqual([]);
    const bogotaNinth = await get(conv, { from_date: "2026-03-09", to_date: "2026-03-09" });
    expect(bogotaNinth.body.data).toHaveLength(1);
    expect(bogotaNinth.body.data[0].created_at).toBe("2026-03-09 22:00:00");
    expect(bogotaNinth.body.data[0].timestamp).toBe(Date.UTC(2026, 2, 10, 3) / 1000);
    const edge = await get(conv, { from_date: "2026-03-09 22:00:00", to_date: "2026-03-09 22:00:00" });
    expect(edge.body.data).toHaveLength(1);
  });

  it("matches customer_source by sanitized number (with + and spaces) or by customer_id", async () => {
    const team = await createTeam();
    const number = await createNumber(team.id);
    const contact = await createContact(team.id, { customerNumber: "573015550101", customerId: "cus_ana_01" });
    const conv = { team, number, contact };
    const [msg] = await insertMessages(conv, [{ createdAt: new Date("2026-03-10T10:00:00Z") }]);
    for (const source of ["573015550101", "+573015550101", "+57 301 555 0101", " 57 301 5550101 ", "cus_ana_01"]) {
      const res = await get(conv, { customer_source: source, from_date: "2026-03-10", to_date: "2026-03-10" });
      expect(res.status, source).toBe(200);
      expect(
        res.body.data.map((r: any) => r.id),
        source,
      ).toEqual([msg.id]);
    }
    // The company number may be written with '+' too.
    const plus = await get(conv, { wa_number: `+${number.number}`, from_date: "2026-03-10", to_date: "2026-03-10" });
    expect(plus.body.data).toHaveLength(1);
  });

  it("answers 200 with no records for a customer without a contact (ruling 14)", async () => {
    const conv = await createConversation();
    await insertMessages(conv, [{ createdAt: new Date("2026-03-10T10:00:00Z") }]);
    const res = await get(conv, { customer_source: "+57 399 000 0000", from_date: "2026-03-10", to_date: "2026-03-10" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "Historial de mensajes obtenido correctamente.", data: [], pagination: null });
    const paged = await get(conv, { customer_source: "cus_nadie", from_date: "2026-03-10", to_date: "2026-03-10", with_pagination: "1" });
    expect(paged.body.data).toEqual([]);
    expect(paged.body.pagination).toEqual({ total_items: 0, items_per_page: 50, current_page: 1, total_pages: 0 });
  });

  it("keeps conversations apart: other contacts and other company numbers of the team", async () => {
    const conv = await createConversation();
    const otherContact = await createContact(conv.team.id);
    const otherNumber = await createNumber(conv.team.id);
    const [mine] = await insertMessages(conv, [{ createdAt: new Date("2026-03-10T10:00:00Z") }]);
    await insertMessages({ ...conv, contact: otherContact }, [{ createdAt: new Date("2026-03-10T10:00:00Z") }]);
    await insertMessages({ ...conv, number: otherNumber }, [{ createdAt: new Date("2026-03-10T10:00:00Z") }]);
    const res = await get(conv, { from_date: "2026-03-10", to_date: "2026-03-10" });
    expect(res.body.data.map((r: any) => r.id)).toEqual([mine.id]);
  });

  it("answers 422 for an unregistered wa_number", async () => {
    const conv = await createConversation();
    const res = await get(conv, { wa_number: "579999999999", from_date: "2026-03-10", to_date: "2026-03-11" });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: WA_NUMBER_NOT_REGISTERED, errors: { wa_number: [WA_NUMBER_NOT_REGISTERED] } });
  });

  it("answers 404 for an unknown channel", async () => {
    const conv = await createConversation();
    const res = await apiClient(server.url, conv.team.token).get(historyUrl(conv, { from_date: "2026-03-10" }, "telegram"));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Canal no encontrado." });
  });

  it("answers 401 without or with a wrong token", async () => {
    const conv = await createConversation();
    const path = historyUrl(conv, { from_date: "2026-03-10" });
    const none = await apiClient(server.url).get(path);
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ message: "Unauthenticated." });
    const wrong = await apiClient(server.url, "wam_nope").get(path);
    expect(wrong.status).toBe(401);
  });

  it("never shows another team's conversation", async () => {
    const conv = await createConversation();
    await insertMessages(conv, [{ createdAt: new Date("2026-03-10T10:00:00Z") }]);
    const intruder = await createTeam();
    const params = { from_date: "2026-03-10", to_date: "2026-03-10" };
    // With the victim's company number: 422, exactly like an unregistered one.
    const foreign = await get(conv, params, intruder.token);
    expect(foreign.status).toBe(422);
    expect(foreign.body).toEqual({ message: WA_NUMBER_NOT_REGISTERED, errors: { wa_number: [WA_NUMBER_NOT_REGISTERED] } });
    // With its own number and the victim's customer (by number and by customer_id): nothing.
    const ownNumber = await createNumber(intruder.id);
    for (const source of [conv.contact.customerNumber!, conv.contact.customerId!]) {
      const res = await get(conv, { ...params, wa_number: ownNumber.number, customer_source: source }, intruder.token);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
    }
  });

  it("streams every record of an unpaginated range across batches, in order", async () => {
    const conv = await createConversation();
    const rows = await insertMessages(conv, minuteSeries("2026-03-10T00:00:00Z", 1200));
    const ids = rows.map((r) => r.id);
    const asc = await get(conv, { from_date: "2026-03-10", to_date: "2026-03-10", order: "ASC" });
    expect(asc.status).toBe(200);
    expect(asc.headers.get("content-type")).toContain("application/json");
    expect(asc.body.pagination).toBeNull();
    expect(asc.body.message).toBe("Historial de mensajes obtenido correctamente.");
    expect(asc.body.data.map((r: any) => r.id)).toEqual(ids);
    expect(asc.body.data[1199].payload).toEqual({ text: "mensaje 1199" });
    const desc = await get(conv, { from_date: "2026-03-10", to_date: "2026-03-10" });
    expect(desc.body.data.map((r: any) => r.id)).toEqual([...ids].reverse());
    // Exactly one batch's worth (500) ends cleanly too.
    const exact = await get(conv, { from_date: "2026-03-10 00:00:00", to_date: "2026-03-10 08:19:00", order: "ASC" });
    expect(exact.body.data.map((r: any) => r.id)).toEqual(ids.slice(0, 500));
  });
});
