import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb, rowsOf } from "@/db/client";
import { messages } from "@/db/schema";
import { startServer, type TestServer } from "../helpers/server";
import { replicaCaughtUp } from "../helpers/replica";
import { apiClient } from "../helpers/client";
import { createAgent, createContact, createLabel, createNumber, createTeam, writeForTeam } from "../helpers/factories";
import { reportAgentsResponse, reportSummaryResponse } from "@/lib/reports/schemas";
import { foldReportHistogramDeltas, foldReportMessageDeltas } from "@/lib/reports/fold";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

type Msg = typeof messages.$inferInsert;
const at = (hms: string, day = "2026-04-10") => new Date(`${day}T${hms}Z`);

/**
 * A scripted day of one team: customers writing, agents and the API answering (90 s, 5 min,
 * 10 min …), a bot's answer and a broadcast that answer nothing, two exchanges written by one
 * hand-written multi-row INSERT, an answer after midnight, and an unanswered customer. Messages
 * go in one statement each, in order, as the service writes them.
 */
async function buildDay() {
  const team = await createTeam();
  const [n1, n2] = [await createNumber(team.id), await createNumber(team.id)];
  const label = await createLabel(team.id);
  const [a1, a2] = [await createAgent(team.id), await createAgent(team.id, undefined, { name: "Beatriz" })];
  const [c1, c2, c3] = [await createContact(team.id, { labelIds: [label.id] }), await createContact(team.id), await createContact(team.id)];
  const inbound = (n: { id: number }, c: { id: number; customerNumber: string | null }, t: Date): Msg => ({
    teamId: team.id,
    waNumberId: n.id,
    contactId: c.id,
    customerNumber: c.customerNumber,
    direction: "INBOUND",
    sender: "CUSTOMER",
    type: "text",
    status: "RECEIVED",
    createdAt: t,
  });
  const outbound = (
    n: { id: number },
    c: { id: number },
    t: Date,
    sender: "AGENT" | "SYSTEM" | "BOT",
    agentId = 0,
    extra: Partial<Msg> = {},
  ): Msg => ({
    teamId: team.id,
    waNumberId: n.id,
    contactId: c.id,
    direction: "OUTBOUND",
    sender,
    agentId,
    type: "text",
    status: "SENT",
    createdAt: t,
    ...extra,
  });
  const script: Msg[] = [
    inbound(n1, c1, at("09:00:00")),
    inbound(n1, c1, at("09:00:30")),
    outbound(n1, c1, at("09:01:30"), "AGENT", a1.id), // 90 s from the first unanswered message
    outbound(n1, c1, at("09:02:00"), "AGENT", a1.id), // nothing waits any more
    inbound(n1, c1, at("10:00:00")),
    outbound(n1, c1, at("10:05:00"), "SYSTEM"), // the API: 300 s
    inbound(n1, c2, at("09:10:00")),
    outbound(n1, c2, at("09:10:05"), "BOT"), // a bot is no first response
    outbound(n1, c2, at("09:20:00"), "AGENT", a2.id), // 600 s
    outbound(n2, c1, at("12:00:00"), "SYSTEM"), // a template to nobody waiting
    inbound(n2, c2, at("23:59:00")),
    outbound(n2, c2, at("00:01:00", "2026-04-11"), "AGENT", a1.id), // 120 s, the next day
    inbound(n1, c3, at("15:00:00")), // never answered
  ];
  await writeForTeam(team.id, async (db) => {
    for (const m of script) await db.insert(messages).values(m);
    // Two exchanges in one hand-written statement: 120 s and 1,800 s (the second waits from 11:10).
    await db.execute(sql`INSERT INTO messages (team_id, wa_number_id, contact_id, direction, sender, agent_id, type, status, created_at)
      VALUES (${team.id}, ${n2.id}, ${c3.id}, 'INBOUND', 'CUSTOMER', 0, 'text', 'RECEIVED', '2026-04-10T11:00:00Z'),
             (${team.id}, ${n2.id}, ${c3.id}, 'OUTBOUND', 'AGENT', ${a1.id}, 'text', 'SENT', '2026-04-10T11:02:00Z'),
             (${team.id}, ${n2.id}, ${c3.id}, 'INBOUND', 'CUSTOMER', 0, 'text', 'RECEIVED', '2026-04-10T11:10:00Z'),
             (${team.id}, ${n2.id}, ${c3.id}, 'INBOUND', 'CUSTOMER', 0, 'text', 'RECEIVED', '2026-04-10T11:20:00Z'),
             (${team.id}, ${n2.id}, ${c3.id}, 'OUTBOUND', 'AGENT', ${a2.id}, 'text', 'SENT', '2026-04-10T11:40:00Z')`);
  });
  return { team, n1, n2, label, a1, a2, c1, c2, c3 };
}

/** percentile_cont: linear interpolation between the closest ranks. */
function percentile(values: number[], p: number): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const pos = p * (s.length - 1);
  const lo = Math.floor(pos);
  return Math.round((s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (pos - lo)) * 10) / 10;
}

type Filter = { waNumberId?: number; labelContacts?: Set<number>; agentId?: number };

/** The first responses and message counts, by brute force over `messages` in arrival (id) order. */
async function bruteForce(teamId: number, f: Filter) {
  const db = await getDb();
  const all = rowsOf<{
    wa_number_id: number;
    contact_id: number;
    direction: string;
    sender: string;
    agent_id: number;
    broadcast_id: number | null;
    created_at: string;
  }>(
    await db.execute(sql`SELECT wa_number_id, contact_id, direction, sender, agent_id, broadcast_id, created_at::text AS created_at
      FROM messages WHERE team_id = ${teamId} ORDER BY id`),
  );
  const waiting = new Map<string, number>();
  const samples: { day: string; seconds: number; m: (typeof all)[number] }[] = [];
  for (const m of all) {
    const key = `${m.wa_number_id}/${m.contact_id}`;
    const t = Date.parse(m.created_at);
    if (m.direction === "INBOUND") {
      if (!waiting.has(key)) waiting.set(key, t);
    } else if ((m.sender === "AGENT" || m.sender === "SYSTEM") && m.broadcast_id == null && waiting.has(key)) {
      samples.push({ day: new Date(t).toISOString().slice(0, 10), seconds: (t - waiting.get(key)!) / 1000, m });
      waiting.delete(key);
    }
  }
  const keep = (m: (typeof all)[number]) =>
    (f.waNumberId === undefined || m.wa_number_id === f.waNumberId) &&
    (f.labelContacts === undefined || f.labelContacts.has(m.contact_id)) &&
    (f.agentId === undefined || (m.direction === "OUTBOUND" ? m.agent_id : 0) === f.agentId);
  const dayOf = (m: (typeof all)[number]) => new Date(Date.parse(m.created_at)).toISOString().slice(0, 10);
  return (day?: string) => {
    const s = samples.filter((x) => keep(x.m) && (day === undefined || x.day === day)).map((x) => x.seconds);
    const ms = all.filter((m) => keep(m) && (day === undefined || dayOf(m) === day));
    return {
      first_responses: s.length,
      first_response_median: percentile(s, 0.5),
      first_response_p90: percentile(s, 0.9),
      messages_in: ms.filter((m) => m.direction === "INBOUND").length,
      messages_out: ms.filter((m) => m.direction === "OUTBOUND").length,
    };
  };
}

const pickTimes = (x: Record<string, unknown>) => ({
  first_responses: x.first_responses,
  first_response_median: x.first_response_median,
  first_response_p90: x.first_response_p90,
  messages_in: x.messages_in,
  messages_out: x.messages_out,
});

describe("GET /api/v1/reports/summary and /agents", () => {
  it("equals a brute-force computation over messages, per day and in total, for every filter", async () => {
    const w = await buildDay();
    await buildDay(); // another team's identical day, never counted
    const api = apiClient(server.url, w.team.token);
    const range = "from=2026-04-09&to=2026-04-11";
    const filters: [string, Filter][] = [
      ["", {}],
      [`&wa_number=${w.n1.number}`, { waNumberId: w.n1.id }],
      [`&wa_number=%2B${w.n2.number}`, { waNumberId: w.n2.id }],
      [`&label_id=${w.label.id}`, { labelContacts: new Set([w.c1.id]) }],
      [`&agent_id=${w.a1.id}`, { agentId: w.a1.id }],
      [`&agent_id=0`, { agentId: 0 }],
      [`&agent_id=${w.a2.id}&wa_number=${w.n2.number}`, { agentId: w.a2.id, waNumberId: w.n2.id }],
    ];
    // Before and after the per-day message counts and time histograms are folded: reads add what is
    // not folded yet.
    for (const folded of [false, true]) {
      if (folded) await Promise.all([foldReportMessageDeltas(), foldReportHistogramDeltas()]);
      for (const [qs, f] of filters) {
        const res = await api.get(`/api/v1/reports/summary?${range}${qs}`);
        expect(res.status, qs).toBe(200);
        const data = reportSummaryResponse.parse(res.body).data;
        const brute = await bruteForce(w.team.id, f);
        expect(data.days.map((d) => d.day)).toEqual(["2026-04-09", "2026-04-10", "2026-04-11"]);
        for (const d of data.days) expect(pickTimes(d), `${qs} ${d.day}`).toEqual(brute(d.day));
        expect(pickTimes(data.totals), qs).toEqual(brute());
      }
    }
    // The script's figures, by hand: 90, 300, 600, 120 (after midnight), 120 and 1,800 s.
    const all = reportSummaryResponse.parse((await api.get(`/api/v1/reports/summary?${range}`)).body).data;
    expect(all.totals.first_responses).toBe(6);
    expect(all.days[1]).toMatchObject({
      first_responses: 5,
      first_response_median: 300,
      first_response_p90: 1320,
      messages_in: 9,
      messages_out: 8,
    });
    expect(all.days[2]).toMatchObject({ first_responses: 1, first_response_median: 120, messages_in: 0, messages_out: 1 });
    // Six conversations opened that day (every (number, contact) pair written to), none resolved.
    expect(all.days[1]).toMatchObject({ conversations_opened: 6, conversations_resolved: 0, resolution_median: null });

    const agents = reportAgentsResponse.parse((await api.get(`/api/v1/reports/agents?${range}`)).body).data.agents;
    for (const a of agents) expect(pickTimes(a), `agent ${a.agent_id}`).toEqual((await bruteForce(w.team.id, { agentId: a.agent_id }))());
    expect(agents.find((a) => a.agent_id === w.a2.id)).toMatchObject({
      agent_name: "Beatriz",
      first_responses: 2,
      first_response_median: 1200,
    });
    expect(agents.map((a) => a.agent_id).sort()).toEqual([0, w.a1.id, w.a2.id].sort());

    // A deleted message is counted out (first responses stay: they happened).
    const db = await getDb();
    await db.execute(sql`DELETE FROM messages WHERE team_id = ${w.team.id} AND contact_id = ${w.c3.id} AND wa_number_id = ${w.n1.id}`);
    // No API deletes messages: this write is the database's own, which the replica sees after its lag.
    await replicaCaughtUp();
    const after = reportSummaryResponse.parse((await api.get(`/api/v1/reports/summary?${range}`)).body).data;
    expect(after.days[1]).toMatchObject({ messages_in: 8, messages_out: 8, first_responses: 5 });
  });

  it("counts conversations opened and resolved, with resolution times, however the status changes", async () => {
    const team = await createTeam();
    const n = await createNumber(team.id);
    const agent = await createAgent(team.id);
    const c = await createContact(team.id);
    const api = apiClient(server.url, team.token);
    const hourAgo = new Date(Date.now() - 3600_000);
    const inbound = (createdAt: Date) =>
      writeForTeam(team.id, (db) =>
        db.insert(messages).values({
          teamId: team.id,
          waNumberId: n.id,
          contactId: c.id,
          direction: "INBOUND",
          sender: "CUSTOMER",
          type: "text",
          status: "RECEIVED",
          createdAt,
        }),
      );
    await inbound(hourAgo);
    const conv = (await api.get(`/api/v1/conversations?wa_number=${n.number}`)).body.data[0];
    expect((await api.patch(`/api/v1/conversations/${conv.id}`, { assignee_agent_id: agent.id, status: "resolved" })).status).toBe(200);
    // A customer message reopens it; a hand-written UPDATE resolves it again.
    await inbound(new Date(Date.now() - 600_000));
    await writeForTeam(team.id, (db) =>
      db.execute(sql`UPDATE conversations SET status = 'resolved' WHERE team_id = ${team.id} AND id = ${conv.id}`),
    );
    // Reopened by the API (now) and left open.
    await api.patch(`/api/v1/conversations/${conv.id}`, { status: "open" });

    const today = new Date().toISOString().slice(0, 10);
    const from = hourAgo.toISOString().slice(0, 10);
    const res = await api.get(`/api/v1/reports/summary?from=${from}&to=${today}`);
    const t = reportSummaryResponse.parse(res.body).data.totals;
    expect(t).toMatchObject({ conversations_opened: 3, conversations_resolved: 2 });
    // 3,600 s and 600 s, give or take the test's own run time.
    expect(t.resolution_median).toBeGreaterThanOrEqual(2100);
    expect(t.resolution_median).toBeLessThan(2100 + 60);
    expect(t.resolution_p90).toBeGreaterThanOrEqual(3600 - 300 + 0);
    const mine = reportAgentsResponse.parse((await api.get(`/api/v1/reports/agents?from=${from}&to=${today}`)).body).data.agents;
    expect(mine.find((a) => a.agent_id === agent.id)).toMatchObject({ conversations_resolved: 2 });
  });

  it("validates in Spanish, answers 401 without credentials, and never shows another team's data", async () => {
    const w = await buildDay();
    const other = await buildDay();
    const api = apiClient(server.url, w.team.token);
    expect((await apiClient(server.url).get("/api/v1/reports/summary")).status).toBe(401);
    expect((await apiClient(server.url).get("/api/v1/reports/agents")).body).toEqual({ message: "Unauthenticated." });

    const bad = await api.get("/api/v1/reports/summary?from=2026-02-30");
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({
      message: "El campo from debe ser una fecha válida con el formato YYYY-MM-DD.",
      errors: { from: ["El campo from debe ser una fecha válida con el formato YYYY-MM-DD."] },
    });
    expect((await api.get("/api/v1/reports/summary?from=2026-04-10&to=2026-04-09")).body.message).toBe(
      "El campo to debe ser una fecha igual o posterior a from.",
    );
    expect((await api.get("/api/v1/reports/summary?from=2025-01-01&to=2026-04-09")).body.message).toBe(
      "El rango de fechas no puede superar 366 días.",
    );
    expect((await api.get("/api/v1/reports/agents?agent_id=x")).body.message).toBe("El campo agent_id debe ser un id entero.");

    // Another team's number, label and agent read like missing ones.
    const range = "from=2026-04-10&to=2026-04-10";
    const foreign = [
      [`wa_number=${other.n1.number}`, "wa_number"],
      [`label_id=${other.label.id}`, "label_id"],
      [`agent_id=${other.a1.id}`, "agent_id"],
    ];
    for (const [qs, field] of foreign) {
      for (const path of ["summary", "agents"]) {
        const res = await api.get(`/api/v1/reports/${path}?${range}&${qs}`);
        expect(res.status, qs).toBe(422);
        expect(Object.keys(res.body.errors)).toEqual([field]);
      }
    }
    // Both teams had the same day; each sees only its own (not twice as much).
    const mine = reportSummaryResponse.parse((await api.get(`/api/v1/reports/summary?${range}`)).body).data.totals;
    expect(mine.first_responses).toBe(5);
    expect(mine.messages_in).toBe(9);
  });
});
