import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb, rowsOf } from "@/db/client";
import { messages } from "@/db/schema";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createContact, createNumber, createTeam, writeForTeam } from "../helpers/factories";
import { messageStatsResponse } from "@/lib/messages/stats-schemas";
import { waitFor } from "../helpers/wait";
import { foldMessageStats } from "@/lib/messages/stats-service";
import { wholeMonths } from "@/lib/messages/stats-repo";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

type Msg = typeof messages.$inferInsert;

/**
 * Folds every delta there is: runs until one finds nothing left. A run answers -1 when another
 * process holds the fold's lock (the suite's other files fold on the same database at the same
 * time), so that is waited out, not taken for "nothing left".
 */
async function foldAll() {
  await waitFor(foldMessageStats, (moved) => moved === 0, 30_000, 20);
}

const STATUSES = ["QUEUED", "SENDED", "SENT", "DELIVERED", "READED", "FAILED"] as const;
const ERRORS = [
  { code: 131047, title: "Re-engagement message" },
  { code: 131026, title: "Message undeliverable" },
  { code: null, title: "Sin código" },
];

function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/**
 * A team with two numbers and several contacts, and ~600 messages over 10 days (both directions,
 * every status, three templates, three sent_groups, several error codes), then written to the way
 * the service does: status moves (single and many rows at once), claims that change no key, and a
 * contact deleted with its messages. The rollup must follow every one of those writes.
 */
async function buildTeam(seed: number, span: { start: number; days: number } = { start: Date.UTC(2026, 2, 1), days: 10 }) {
  const rand = rng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  const team = await createTeam();
  const numbers = [await createNumber(team.id), await createNumber(team.id)];
  const contacts: Awaited<ReturnType<typeof createContact>>[] = [];
  for (let i = 0; i < 6; i++) contacts.push(await createContact(team.id));
  const rows: Msg[] = [];
  for (let i = 0; i < 600; i++) {
    const contact = pick(contacts);
    const outbound = rand() < 0.8;
    const status = outbound ? pick(STATUSES) : "RECEIVED";
    const err = status === "FAILED" ? pick(ERRORS) : null;
    rows.push({
      teamId: team.id,
      waNumberId: pick(numbers).id,
      contactId: contact.id,
      customerNumber: contact.customerNumber,
      direction: outbound ? "OUTBOUND" : "INBOUND",
      sender: outbound ? "AGENT" : "CUSTOMER",
      type: outbound ? "template" : "text",
      status,
      templateName: outbound ? pick(["pedido", "promo", null]) : null,
      sentGroup: outbound ? pick(["black-friday", "navidad", null]) : null,
      error: err,
      // Days 2026-03-01 … 2026-03-10 unless told, at varied hours (UTC days decide).
      createdAt: new Date(span.start + Math.floor(rand() * span.days) * 86_400_000 + Math.floor(rand() * 24 * 60) * 60_000),
    });
  }
  await writeForTeam(team.id, async (db) => {
    const inserted = await db.insert(messages).values(rows).returning({ id: messages.id });
    const ids = inserted.map((r) => r.id);
    // Status moves of one message at a time and of many at once, some failing with an error.
    for (const id of ids.slice(0, 30)) {
      await db.execute(sql`UPDATE messages SET status = 'FAILED', error = ${JSON.stringify(pick(ERRORS))}::jsonb
        WHERE id = ${id} AND direction = 'OUTBOUND'`);
    }
    await db.execute(
      sql`UPDATE messages SET status = 'READED', error = NULL WHERE team_id = ${team.id} AND id % 7 = 0 AND direction = 'OUTBOUND'`,
    );
    // A claim and a lease: no key changes.
    await db.execute(
      sql`UPDATE messages SET locked_until = now(), attempts = attempts + 1 WHERE team_id = ${team.id} AND status = 'QUEUED'`,
    );
    // A deleted contact takes its messages with it (cascade).
    await db.execute(sql`DELETE FROM contacts WHERE id = ${contacts[5].id}`);
  });
  return { team, numbers };
}

type Filter = { sent_group?: string; template?: string; wa_number?: string; from?: string; to?: string };

/** The answer, counted by brute force over `messages`. */
async function bruteForce(teamId: number, f: Filter, numberIds: Map<string, number>) {
  const db = await getDb();
  const all = rowsOf<{
    status: string;
    template_name: string | null;
    sent_group: string | null;
    wa_number_id: number;
    day: string;
    error: any;
  }>(
    await db.execute(sql`SELECT status, template_name, sent_group, wa_number_id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, error
      FROM messages WHERE team_id = ${teamId} AND direction = 'OUTBOUND'`),
  ).filter(
    (m) =>
      (f.sent_group === undefined || m.sent_group === f.sent_group) &&
      (f.template === undefined || m.template_name === f.template) &&
      (f.wa_number === undefined || m.wa_number_id === numberIds.get(f.wa_number)) &&
      (f.from === undefined || m.day >= f.from) &&
      (f.to === undefined || m.day <= f.to),
  );
  const by_status = Object.fromEntries(STATUSES.map((s) => [s, all.filter((m) => m.status === s).length]));
  const codes = new Map<number | null, { code: number | null; title: string; count: number }>();
  for (const m of all.filter((x) => x.status === "FAILED")) {
    const code = m.error?.code ?? null;
    const entry = codes.get(code) ?? { code, title: m.error?.title ?? "", count: 0 };
    entry.count++;
    codes.set(code, entry);
  }
  return {
    total: all.length,
    by_status,
    failures_by_code: [...codes.values()].sort((a, b) => b.count - a.count || (a.code ?? 0) - (b.code ?? 0)),
  };
}

describe("GET /api/v1/messages/stats", () => {
  it("equals a brute-force count over messages for every filter combination", async () => {
    const { team, numbers } = await buildTeam(5);
    await buildTeam(6); // another team's sends, same groups and templates, never counted
    const api = apiClient(server.url, team.token);
    const numberIds = new Map(numbers.map((n) => [n.number, n.id]));
    const filters: Filter[] = [
      {},
      { sent_group: "black-friday" },
      { sent_group: "navidad", template: "promo" },
      { template: "pedido" },
      { wa_number: numbers[1].number },
      { wa_number: numbers[0].number, sent_group: "black-friday", from: "2026-03-03" },
      { from: "2026-03-02", to: "2026-03-04" },
      { to: "2026-03-01" },
      { from: "2026-03-05", to: "2026-03-05", template: "promo" },
      { sent_group: "no-existe" },
    ];
    let counted = 0;
    for (const f of filters) {
      const res = await api.get(`/api/v1/messages/stats?${new URLSearchParams(f as Record<string, string>)}`);
      expect(res.status, res.text).toBe(200);
      const expected = await bruteForce(team.id, f, numberIds);
      expect(res.body, JSON.stringify(f)).toEqual({ message: "Estadísticas de mensajes obtenidas correctamente.", data: expected });
      expect(messageStatsResponse.parse(res.body)).toEqual(res.body);
      counted += expected.total;
    }
    expect(counted).toBeGreaterThan(500);
  });

  it("reads all time from the totals, whole months from their rollup and the ragged ends from the days, exactly as a count over messages", async () => {
    // Days 2026-01-25 … 2026-04-14: two whole months and two partial ones.
    const { team, numbers } = await buildTeam(7, { start: Date.UTC(2026, 0, 25), days: 80 });
    await buildTeam(8, { start: Date.UTC(2026, 0, 25), days: 80 });
    const db = await getDb();
    const api = apiClient(server.url, team.token);
    const numberIds = new Map(numbers.map((n) => [n.number, n.id]));
    const filters: Filter[] = [
      {},
      { sent_group: "navidad" },
      { from: "2026-02-01", to: "2026-03-31" },
      { from: "2026-02-01", to: "2026-02-28" },
      { from: "2026-01-31", to: "2026-04-01" },
      { from: "2026-02-15", to: "2026-03-15" },
      { from: "2026-03-01" },
      { from: "2026-03-02", template: "promo" },
      { to: "2026-02-28", wa_number: numbers[0].number },
      { to: "2026-03-30" },
    ];
    // Once with most counts still deltas, once with every one folded into the days and months.
    for (const folded of [false, true]) {
      if (folded) await foldAll();
      for (const f of filters) {
        const res = await api.get(`/api/v1/messages/stats?${new URLSearchParams(f as Record<string, string>)}`);
        expect(res.status, res.text).toBe(200);
        expect(res.body.data, `${JSON.stringify(f)} folded=${folded}`).toEqual(await bruteForce(team.id, f, numberIds));
      }
    }
    // The months are the days summed, and the totals the months summed (keys netted to 0 may be
    // missing from either side).
    const monthsOf = async (table: "days" | "months") =>
      rowsOf<{ k: string; n: string }>(
        await db.execute(
          table === "days"
            ? sql`SELECT concat_ws('|', date_trunc('month', day::timestamp)::date, wa_number_id, template_name, sent_group, status, error_code, error_title) AS k,
                sum(messages)::text AS n FROM message_stats WHERE team_id = ${team.id} GROUP BY 1 HAVING sum(messages) <> 0 ORDER BY 1`
            : sql`SELECT concat_ws('|', month, wa_number_id, template_name, sent_group, status, error_code, error_title) AS k,
                messages::text AS n FROM message_stats_months WHERE team_id = ${team.id} AND messages <> 0 ORDER BY 1`,
        ),
      );
    const totalsOf = async (table: "days" | "totals") =>
      rowsOf<{ k: string; n: string }>(
        await db.execute(
          table === "days"
            ? sql`SELECT concat_ws('|', wa_number_id, template_name, sent_group, status, error_code, error_title) AS k,
                sum(messages)::text AS n FROM message_stats WHERE team_id = ${team.id} GROUP BY 1 HAVING sum(messages) <> 0 ORDER BY 1`
            : sql`SELECT concat_ws('|', wa_number_id, template_name, sent_group, status, error_code, error_title) AS k,
                messages::text AS n FROM message_stats_totals WHERE team_id = ${team.id} AND messages <> 0 ORDER BY 1`,
        ),
      );
    expect(await monthsOf("months")).toEqual(await monthsOf("days"));
    expect((await monthsOf("months")).length).toBeGreaterThan(20);
    expect(await totalsOf("totals")).toEqual(await totalsOf("days"));
    expect((await totalsOf("totals")).length).toBeLessThan((await monthsOf("months")).length);
    // SQL by hand on the days moves the months and the totals too: an update, a delete and an insert.
    await db.execute(sql`UPDATE message_stats SET messages = messages + 2 WHERE team_id = ${team.id} AND day = '2026-02-10'`);
    await db.execute(sql`DELETE FROM message_stats WHERE team_id = ${team.id} AND day = '2026-03-05'`);
    await db.execute(sql`INSERT INTO message_stats (team_id, day, wa_number_id, template_name, sent_group, status, error_code, error_title, messages)
      VALUES (${team.id}, '2026-04-02', ${numbers[0].id}, 'a-mano', '', 'SENT', 0, '', 3)`);
    expect(await monthsOf("months")).toEqual(await monthsOf("days"));
    expect(await totalsOf("totals")).toEqual(await totalsOf("days"));
  });

  it("splits a range of days into its whole UTC months and ragged ends", () => {
    expect(wholeMonths()).toEqual({ start: undefined, end: undefined });
    expect(wholeMonths("2026-02-01", "2026-02-28")).toEqual({ start: "2026-02-01", end: "2026-03-01" });
    expect(wholeMonths("2024-02-01", "2024-02-28")).toBeNull(); // a leap year's February has 29 days
    expect(wholeMonths("2026-01-31", "2026-04-01")).toEqual({ start: "2026-02-01", end: "2026-04-01" });
    expect(wholeMonths("2026-02-15", "2026-03-15")).toBeNull();
    expect(wholeMonths("2026-03-02")).toEqual({ start: "2026-04-01", end: undefined });
    expect(wholeMonths(undefined, "2026-03-30")).toEqual({ start: undefined, end: "2026-03-01" });
    expect(wholeMonths("2026-12-01", "2026-12-31")).toEqual({ start: "2026-12-01", end: "2027-01-01" });
    expect(wholeMonths("2026-03-05", "2026-03-05")).toBeNull();
  });

  it("takes a number as the contract writes it (+57 …) and refuses another team's number like an unknown one", async () => {
    const a = await buildTeam(7);
    const b = await buildTeam(8);
    const api = apiClient(server.url, a.team.token);
    const n = a.numbers[0].number;
    const plus = await api.get(`/api/v1/messages/stats?wa_number=${encodeURIComponent(`+${n}`)}`);
    expect(plus.body.data).toEqual(await bruteForce(a.team.id, { wa_number: n }, new Map(a.numbers.map((x) => [x.number, x.id]))));
    const foreign = await api.get(`/api/v1/messages/stats?wa_number=${b.numbers[0].number}`);
    expect(foreign.status).toBe(422);
    expect(foreign.body).toEqual({
      message: "El número de WhatsApp no está registrado.",
      errors: { wa_number: ["El número de WhatsApp no está registrado."] },
    });
    expect((await apiClient(server.url).get("/api/v1/messages/stats")).status).toBe(401);
  });

  it("validates dates with exact texts", async () => {
    const team = await createTeam();
    const api = apiClient(server.url, team.token);
    const bad = await api.get("/api/v1/messages/stats?from=2026-02-30");
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ from: ["El campo from debe ser una fecha válida con el formato YYYY-MM-DD."] });
    const reversed = await api.get("/api/v1/messages/stats?from=2026-03-05&to=2026-03-01");
    expect(reversed.body.errors).toEqual({ to: ["El campo to debe ser una fecha igual o posterior a from."] });
    const empty = await api.get("/api/v1/messages/stats?sent_group=");
    expect(empty.body.data).toEqual({
      total: 0,
      by_status: { QUEUED: 0, SENDED: 0, SENT: 0, DELIVERED: 0, READED: 0, FAILED: 0 },
      failures_by_code: [],
    });
  });
});

describe("the message_stats rollup", () => {
  type RollupRow = {
    day: string;
    template_name: string;
    sent_group: string;
    status: string;
    error_code: string;
    error_title: string;
    messages: string;
  };
  /**
   * Every rollup row of the team (one number), including keys netted to 0, in key order, once the
   * pending deltas are folded in (the chore does it about once a second).
   */
  async function rollupOf(teamId: number): Promise<RollupRow[]> {
    const db = await getDb();
    await foldAll();
    return rowsOf<RollupRow>(
      await db.execute(sql`SELECT day::text AS day, template_name, sent_group, status, error_code::text AS error_code, error_title,
          messages::text AS messages
        FROM message_stats WHERE team_id = ${teamId} ORDER BY day, template_name, sent_group, status, error_code, error_title`),
    );
  }
  /** Where each rollup row physically is and which transaction wrote it: unchanged when nothing is written. */
  async function rollupVersions(teamId: number) {
    const db = await getDb();
    return rowsOf<{ ctid: string; xmin: string }>(
      await db.execute(sql`SELECT ctid::text AS ctid, xmin::text AS xmin FROM message_stats WHERE team_id = ${teamId} ORDER BY ctid`),
    );
  }
  async function pendingDeltas(teamId: number): Promise<number> {
    const db = await getDb();
    return Number(
      rowsOf<{ n: number }>(await db.execute(sql`SELECT count(*)::int AS n FROM message_stats_deltas WHERE team_id = ${teamId}`))[0].n,
    );
  }
  const row = (day: string, template: string, group: string, status: string, messages: number, code = 0, title = ""): RollupRow => ({
    day,
    template_name: template,
    sent_group: group,
    status,
    error_code: String(code),
    error_title: title,
    messages: String(messages),
  });

  it("follows an insert, single and bulk status moves, a key-less claim, a delete and a cascaded delete", async () => {
    const db = await getDb();
    const team = await createTeam();
    const number = await createNumber(team.id);
    const contact = await createContact(team.id);
    const base = { teamId: team.id, waNumberId: number.id, contactId: contact.id, type: "template" } as const;
    const out = { ...base, direction: "OUTBOUND", sender: "AGENT", status: "QUEUED" } as const;
    const [m1, m2, m3] = await db
      .insert(messages)
      .values([
        // 23:30 UTC is still March 1st: the day is the UTC day.
        { ...out, templateName: "pedido", sentGroup: "g1", createdAt: new Date("2026-03-01T23:30:00Z") },
        { ...out, templateName: "pedido", sentGroup: "g1", createdAt: new Date("2026-03-01T10:00:00Z") },
        { ...out, templateName: null, sentGroup: null, createdAt: new Date("2026-03-02T00:10:00Z") },
        // Inbound messages are not counted.
        {
          ...base,
          direction: "INBOUND",
          sender: "CUSTOMER",
          type: "text",
          status: "RECEIVED",
          createdAt: new Date("2026-03-01T12:00:00Z"),
        },
      ])
      .returning({ id: messages.id });
    expect(await rollupOf(team.id)).toEqual([row("2026-03-01", "pedido", "g1", "QUEUED", 2), row("2026-03-02", "", "", "QUEUED", 1)]);

    // One row moves to FAILED with a provider error: its old key loses it, its new key gains it.
    const reengagement = { code: 131047, title: "Re-engagement message" };
    await db.execute(sql`UPDATE messages SET status = 'FAILED', error = ${JSON.stringify(reengagement)}::jsonb WHERE id = ${m1.id}`);
    // Written as one move row (its new key, and the key it left in from_*), not as a -1 and a +1.
    expect(await pendingDeltas(team.id)).toBe(1);
    expect(await rollupOf(team.id)).toEqual([
      row("2026-03-01", "pedido", "g1", "FAILED", 1, 131047, "Re-engagement message"),
      row("2026-03-01", "pedido", "g1", "QUEUED", 1),
      row("2026-03-02", "", "", "QUEUED", 1),
    ]);

    // Two rows at once, with a code that is not a plain number (counted as 0) and a title cut to 200.
    const odd = { code: "131026", title: "x".repeat(250) };
    await db.execute(sql`UPDATE messages SET status = 'FAILED', error = ${JSON.stringify(odd)}::jsonb WHERE id IN (${m2.id}, ${m3.id})`);
    expect(await pendingDeltas(team.id)).toBe(2);
    const afterBulk = [
      row("2026-03-01", "pedido", "g1", "FAILED", 1, 0, "x".repeat(200)),
      row("2026-03-01", "pedido", "g1", "FAILED", 1, 131047, "Re-engagement message"),
      row("2026-03-01", "pedido", "g1", "QUEUED", 0),
      row("2026-03-02", "", "", "FAILED", 1, 0, "x".repeat(200)),
      row("2026-03-02", "", "", "QUEUED", 0),
    ];
    expect(await rollupOf(team.id)).toEqual(afterBulk);

    // A FAILED message's error edited within its code and title (the trigger's WHEN lets it through,
    // the function then finds no key changed): nothing is written.
    await db.execute(
      sql`UPDATE messages SET error = ${JSON.stringify({ ...reengagement, details: "otra vez" })}::jsonb WHERE id = ${m1.id}`,
    );
    expect(await pendingDeltas(team.id)).toBe(0);

    // A claim and a lease change no key: neither a delta nor the rollup is written at all.
    const before = await rollupVersions(team.id);
    await db.execute(sql`UPDATE messages SET locked_until = now(), attempts = attempts + 1 WHERE team_id = ${team.id}`);
    expect(await pendingDeltas(team.id)).toBe(0);
    await foldAll();
    expect(await rollupVersions(team.id)).toEqual(before);
    expect(await rollupOf(team.id)).toEqual(afterBulk);

    // A deleted message leaves its key.
    await db.execute(sql`DELETE FROM messages WHERE id = ${m1.id}`);
    expect(await rollupOf(team.id)).toEqual([
      row("2026-03-01", "pedido", "g1", "FAILED", 1, 0, "x".repeat(200)),
      row("2026-03-01", "pedido", "g1", "FAILED", 0, 131047, "Re-engagement message"),
      row("2026-03-01", "pedido", "g1", "QUEUED", 0),
      row("2026-03-02", "", "", "FAILED", 1, 0, "x".repeat(200)),
      row("2026-03-02", "", "", "QUEUED", 0),
    ]);

    // A deleted contact takes its messages with it (cascade): every key is back to 0.
    await db.execute(sql`DELETE FROM contacts WHERE id = ${contact.id}`);
    expect((await rollupOf(team.id)).map((r) => r.messages)).toEqual(["0", "0", "0", "0", "0"]);
  });

  it("moves a count between keys when a message's template or group changes with its status (two plain rows, not a move)", async () => {
    const db = await getDb();
    const team = await createTeam();
    const number = await createNumber(team.id);
    const contact = await createContact(team.id);
    const out = { teamId: team.id, waNumberId: number.id, contactId: contact.id, type: "template", direction: "OUTBOUND" } as const;
    const [m] = await db
      .insert(messages)
      .values({
        ...out,
        sender: "SYSTEM",
        status: "SENDED",
        templateName: "promo",
        sentGroup: "g",
        createdAt: new Date("2026-04-01T12:00:00Z"),
      })
      .returning({ id: messages.id });
    await rollupOf(team.id);
    await db.execute(sql`UPDATE messages SET status = 'SENT', template_name = 'otra', sent_group = NULL WHERE id = ${m.id}`);
    expect(await pendingDeltas(team.id)).toBe(2);
    expect(await rollupOf(team.id)).toEqual([row("2026-04-01", "otra", "", "SENT", 1), row("2026-04-01", "promo", "g", "SENDED", 0)]);
  });

  it("answers exactly while deltas wait unfolded, and concurrent writers and folds count each change once", async () => {
    const team = await createTeam();
    const number = await createNumber(team.id);
    const contact = await createContact(team.id);
    const out = { teamId: team.id, waNumberId: number.id, contactId: contact.id, type: "template", direction: "OUTBOUND" } as const;
    await writeForTeam(team.id, async (db) => {
      const rows = await db
        .insert(messages)
        .values(
          Array.from({ length: 60 }, () => ({
            ...out,
            sender: "SYSTEM" as const,
            status: "SENDED" as const,
            templateName: "promo",
            sentGroup: "g",
          })),
        )
        .returning({ id: messages.id });
      // Sixty status moves at once, all on the same rollup key, and a fold racing them.
      const moves = rows.map((r, i) =>
        db.execute(sql`UPDATE messages SET status = ${i % 3 === 0 ? "READED" : "DELIVERED"} WHERE id = ${r.id}`),
      );
      await Promise.all([...moves, foldMessageStats(), foldMessageStats()]);
    });
    const api = apiClient(server.url, team.token);
    const expected = {
      total: 60,
      by_status: { QUEUED: 0, SENDED: 0, SENT: 0, DELIVERED: 40, READED: 20, FAILED: 0 },
      failures_by_code: [],
    };
    // Whatever was folded or not, the answer is the same.
    expect((await api.get("/api/v1/messages/stats?sent_group=g")).body.data).toEqual(expected);
    await foldAll();
    expect(await pendingDeltas(team.id)).toBe(0);
    expect((await api.get("/api/v1/messages/stats?sent_group=g")).body.data).toEqual(expected);
  });
});
