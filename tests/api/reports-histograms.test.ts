import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { getDb, rowsOf } from "@/db/client";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { waitFor } from "../helpers/wait";
import { createAgent, createContact, createLabel, createNumber, createTeam, writeForTeam } from "../helpers/factories";
import { reportAgentsResponse, reportSummaryResponse, type ReportFigures } from "@/lib/reports/schemas";
import { HISTOGRAM_FOLD_LOCK } from "@/lib/reports/repo";
import { foldReportHistogramDeltas } from "@/lib/reports/fold";
import { BOUNDS, EXACT_BELOW, MAX_RELATIVE_ERROR, bucketOf, bucketRange } from "@/lib/reports/buckets";

/**
 * The reports' time histograms (report_histograms, lib/reports/buckets.ts): percentiles read from
 * per-day bucket counts instead of sorting every sample. tests/api/reports.test.ts checks the
 * exact figures of a scripted day (all its times are below 4,096 s, so exact); this file checks
 * the buckets themselves, the stated error over a spread of times, and how the counts get there.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const DAY = 86_400_000;
const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);

/** percentile_cont, unrounded. */
function exactPercentile(values: number[], p: number): number | null {
  if (!values.length) return null;
  const s = [...values].sort((a, b) => a - b);
  const pos = p * (s.length - 1);
  const lo = Math.floor(pos);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (pos - lo);
}

/** Within the stated relative error of the exact percentile (plus the answer's rounding to 0.1 s). */
function expectClose(got: number | null, exact: number | null, what: string) {
  if (exact === null) return expect(got, what).toBeNull();
  expect(got, what).not.toBeNull();
  expect(Math.abs(got! - exact), `${what}: ${got} vs exact ${exact}`).toBeLessThanOrEqual(exact * MAX_RELATIVE_ERROR + 0.05);
}

/**
 * One exchange per (contact, seconds): the customer writes `seconds` before `answeredAt`, an agent
 * answers at `answeredAt`. All in one multi-row INSERT, as a bulk writer would.
 */
async function writeExchanges(
  team: { id: number },
  numberId: number,
  rows: { contactId: number; agentId: number; seconds: number; answeredAt: number }[],
) {
  const values = rows.flatMap((r) => [
    sql`(${team.id}, ${numberId}, ${r.contactId}, 'INBOUND', 'CUSTOMER', 0, 'text', 'RECEIVED', ${new Date(r.answeredAt - r.seconds * 1000).toISOString()}::timestamptz)`,
    sql`(${team.id}, ${numberId}, ${r.contactId}, 'OUTBOUND', 'AGENT', ${r.agentId}, 'text', 'SENT', ${new Date(r.answeredAt).toISOString()}::timestamptz)`,
  ]);
  await writeForTeam(team.id, (db) =>
    db.execute(sql`INSERT INTO messages (team_id, wa_number_id, contact_id, direction, sender, agent_id, type, status, created_at)
      VALUES ${sql.join(values, sql`, `)}`),
  );
}

async function deltasOf(teamId: number): Promise<number> {
  const db = await getDb();
  const [r] = rowsOf<{ n: number }>(
    await db.execute(sql`SELECT count(*)::int AS n FROM report_histogram_deltas WHERE team_id = ${teamId}`),
  );
  return Number(r.n);
}

/** Folds until none of the team's deltas is left (another process may hold the fold meanwhile). */
async function foldAll(teamId: number) {
  await waitFor(
    async () => {
      await foldReportHistogramDeltas();
      return deltasOf(teamId);
    },
    (n) => n === 0,
  );
}

/**
 * Runs `fn` while no fold can run (the folds' try-lock held), so that what it reads is certainly
 * not folded yet. On PGlite the database is this file's own and nothing else folds; on a shared
 * Postgres other test files fold, so the lock is held on a connection of its own.
 */
async function withFoldsHeld<T>(fn: () => Promise<T>): Promise<T> {
  if (!process.env.DATABASE_URL) return fn();
  const { default: postgres } = await import("postgres");
  const conn = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
  try {
    return (await conn.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${HISTOGRAM_FOLD_LOCK})`;
      return fn();
    })) as T;
  } finally {
    await conn.end({ timeout: 5 });
  }
}

/** A deterministic spread of times, log-uniform from 1 s to 5 days, and some round ones. */
function spread(n: number): number[] {
  let x = 12345;
  const out = [0, 1, 59, 60, 4095, 4096, 4097, 86_400];
  while (out.length < n) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    out.push(Math.round(Math.exp((x / 2 ** 31) * Math.log(5 * 86_400))));
  }
  return out;
}

describe("report time histograms", () => {
  it("the database buckets every value as lib/reports/buckets.ts does: each second below 64 s, then 32 buckets per doubling", async () => {
    const values = [...Array.from({ length: EXACT_BELOW + 10 }, (_, i) => i), ...BOUNDS.flatMap((b) => [b - 1, b, b + 1])].filter(
      (v) => v <= 2 ** 31 - 1,
    );
    values.push(2 ** 31 - 1);
    const db = await getDb();
    const got = rowsOf<{ s: number; b: number }>(
      await db.execute(
        sql`SELECT s, report_seconds_bucket(s) AS b FROM unnest(ARRAY[${sql.join(
          values.map((v) => sql`${v}`),
          sql`, `,
        )}]::integer[]) s`,
      ),
    );
    expect(got).toHaveLength(values.length);
    for (const { s, b } of got) {
      expect(Number(b), `bucket of ${s}`).toBe(bucketOf(Number(s)));
      const [from, to] = bucketRange(Number(b));
      expect(Number(s), `bucket of ${s}`).toBeGreaterThanOrEqual(from);
      expect(Number(s), `bucket of ${s}`).toBeLessThan(to);
      if (Number(s) < EXACT_BELOW) expect(to - from).toBe(1);
      // Any two samples of one bucket are within the stated error of each other.
      else expect((to - 1 - from) / from).toBeLessThanOrEqual(MAX_RELATIVE_ERROR);
    }
    expect(MAX_RELATIVE_ERROR).toBeLessThan(0.022);
    // A negative time (clocks) counts as 0, like the samples' greatest(0, …).
    const [neg] = rowsOf<{ b: number }>(await db.execute(sql`SELECT report_seconds_bucket(-5) AS b`));
    expect(Number(neg.b)).toBe(0);
  });

  it("gives medians and p90s across several days within the stated error of the exact ones, also by agent and by label", async () => {
    const team = await createTeam();
    const n = await createNumber(team.id);
    const label = await createLabel(team.id);
    const agents = [await createAgent(team.id), await createAgent(team.id)];
    const times = spread(160);
    const contacts = await Promise.all(times.map(() => createContact(team.id, { labelIds: [label.id] })));
    const base = Date.parse(`${isoDay(Date.now() - 12 * DAY)}T12:00:00Z`);
    const rows = times.map((seconds, i) => ({
      contactId: contacts[i].id,
      agentId: agents[i % 2].id,
      seconds,
      answeredAt: base + (i % 5) * DAY + i * 1000,
    }));
    await writeExchanges(team, n.id, rows.slice(0, 80));
    await writeExchanges(team, n.id, rows.slice(80));
    // Resolutions with a spread of times too: each conversation resolved `seconds` after its opening.
    const resolved = spread(40).map((s) => s * 3);
    await writeForTeam(team.id, (db) =>
      db.execute(sql`UPDATE conversations c SET status = 'resolved', opened_at = now() - make_interval(secs => v.s)
        FROM (VALUES ${sql.join(
          resolved.map((s, i) => sql`(${contacts[i].id}::int, ${s}::int)`),
          sql`, `,
        )}) v(contact_id, s)
        WHERE c.team_id = ${team.id} AND c.contact_id = v.contact_id`),
    );

    const api = apiClient(server.url, team.token);
    const range = `from=${isoDay(base - 6 * DAY)}&to=${isoDay(Date.now())}`;
    const check = (f: ReportFigures, samples: number[], what: string) => {
      expect(f.first_responses, what).toBe(samples.length);
      expectClose(f.first_response_median, exactPercentile(samples, 0.5), `${what} median`);
      expectClose(f.first_response_p90, exactPercentile(samples, 0.9), `${what} p90`);
    };
    for (const folded of [false, true]) {
      if (folded) await foldAll(team.id);
      const summary = reportSummaryResponse.parse((await api.get(`/api/v1/reports/summary?${range}`)).body).data;
      check(summary.totals, times, `totals, folded ${folded}`);
      for (const d of summary.days) {
        check(
          d,
          rows.filter((r) => isoDay(r.answeredAt) === d.day).map((r) => r.seconds),
          `${d.day}, folded ${folded}`,
        );
      }
      expect(summary.totals).toMatchObject({ conversations_opened: times.length, conversations_resolved: resolved.length });
      expectClose(summary.totals.resolution_median, exactPercentile(resolved, 0.5), "resolution median");
      expectClose(summary.totals.resolution_p90, exactPercentile(resolved, 0.9), "resolution p90");

      const byAgent = reportAgentsResponse.parse((await api.get(`/api/v1/reports/agents?${range}`)).body).data.agents;
      for (const a of agents) {
        const got = byAgent.find((x) => x.agent_id === a.id)!;
        check(
          got,
          rows.filter((r) => r.agentId === a.id).map((r) => r.seconds),
          `agent ${a.id}`,
        );
      }
      // By label the samples are bucketed as they are read: the same figures as the rollup's.
      const byLabel = reportSummaryResponse.parse((await api.get(`/api/v1/reports/summary?${range}&label_id=${label.id}`)).body).data;
      expect(byLabel.totals).toEqual(summary.totals);
      expect(byLabel.days).toEqual(summary.days);
    }
  });

  it("reads the deltas not folded yet, and the same figures once they are folded", async () => {
    const team = await createTeam();
    const n = await createNumber(team.id);
    const agent = await createAgent(team.id);
    const contacts = await Promise.all([1, 2, 3, 4].map(() => createContact(team.id)));
    const answeredAt = Date.parse(`${isoDay(Date.now() - 3 * DAY)}T10:00:00Z`);
    const seconds = [30, 75, 5000, 200_000];
    const api = apiClient(server.url, team.token);
    // From the day the longest wait began: its conversation was opened then.
    const range = `from=${isoDay(answeredAt - 200_000_000)}&to=${isoDay(answeredAt)}`;
    const before = await withFoldsHeld(async () => {
      await writeExchanges(
        team,
        n.id,
        seconds.map((s, i) => ({ contactId: contacts[i].id, agentId: agent.id, seconds: s, answeredAt })),
      );
      const db = await getDb();
      const [folded] = rowsOf<{ n: number }>(
        await db.execute(sql`SELECT count(*)::int AS n FROM report_histograms WHERE team_id = ${team.id}`),
      );
      expect(Number(folded.n)).toBe(0);
      expect(await deltasOf(team.id)).toBeGreaterThan(0);
      return reportSummaryResponse.parse((await api.get(`/api/v1/reports/summary?${range}`)).body).data;
    });
    expect(before.totals).toMatchObject({ first_responses: 4, conversations_opened: 4 });
    // One sample per bucket: each bucket's mean is its sample, so the figures are exact.
    const tenth = (v: number | null) => Math.round(v! * 10) / 10;
    expect(before.totals.first_response_median).toBe(tenth(exactPercentile(seconds, 0.5)));
    expect(before.totals.first_response_p90).toBe(tenth(exactPercentile(seconds, 0.9)));
    await foldAll(team.id);
    // Every day and the total the same once folded, the days now read from report_day_figures
    // (one row per day at each level the fold touched).
    const after = reportSummaryResponse.parse((await api.get(`/api/v1/reports/summary?${range}`)).body).data;
    expect(after).toEqual(before);
    const db = await getDb();
    const figureLevels = async () =>
      rowsOf<{ wa_number_id: number; agent_id: number }>(
        await db.execute(sql`SELECT DISTINCT wa_number_id, agent_id FROM report_day_figures WHERE team_id = ${team.id} ORDER BY 1, 2`),
      ).map((r) => [Number(r.wa_number_id), Number(r.agent_id)]);
    // (agent 0: the openings, unassigned)
    expect(await figureLevels()).toEqual([
      [0, -1],
      [0, 0],
      [0, agent.id],
      [n.id, -1],
      [n.id, 0],
      [n.id, agent.id],
    ]);
    // A folded day with new deltas is read from its buckets plus them, beside days read from
    // their figures, and equals itself once folded again; by agent and number too.
    const more = await Promise.all([1, 2].map(() => createContact(team.id)));
    const qs = [range, `${range}&agent_id=${agent.id}`, `${range}&wa_number=${n.number}`];
    const mixed = await withFoldsHeld(async () => {
      await writeExchanges(team, n.id, [
        { contactId: more[0].id, agentId: agent.id, seconds: 40, answeredAt: answeredAt + 3_600_000 },
        { contactId: more[1].id, agentId: agent.id, seconds: 7_000, answeredAt: answeredAt + 3_600_000 },
      ]);
      expect(await deltasOf(team.id)).toBeGreaterThan(0);
      return Promise.all(qs.map(async (q) => reportSummaryResponse.parse((await api.get(`/api/v1/reports/summary?${q}`)).body).data));
    });
    expect(mixed[0].totals.first_responses).toBe(6);
    expect(mixed[0].days.find((d) => d.day === isoDay(answeredAt))?.first_responses).toBe(6);
    await foldAll(team.id);
    for (const [i, q] of qs.entries()) {
      expect(reportSummaryResponse.parse((await api.get(`/api/v1/reports/summary?${q}`)).body).data, q).toEqual(mixed[i]);
    }
  });

  it("counts every sample of concurrent writers once the deltas are folded, folds running meanwhile", async () => {
    const team = await createTeam();
    const [n1, n2] = [await createNumber(team.id), await createNumber(team.id)];
    const agents = [await createAgent(team.id), await createAgent(team.id)];
    const contacts = await Promise.all(Array.from({ length: 24 }, () => createContact(team.id)));
    const day = Date.parse(`${isoDay(Date.now() - 12 * DAY)}T08:00:00Z`);
    const times = spread(24 * 3);
    // Each writer answers its customer three times, one statement each, on the same day's keys as
    // every other writer; folds run between them.
    const writers = contacts.map(async (c, i) => {
      for (let k = 0; k < 3; k++) {
        const seconds = times[i * 3 + k];
        await writeExchanges(team, i % 2 ? n1.id : n2.id, [
          { contactId: c.id, agentId: agents[k % 2].id, seconds, answeredAt: day + k * 3 * DAY + i * 1000 + seconds * 1000 },
        ]);
      }
    });
    const folders = Array.from({ length: 6 }, () => foldReportHistogramDeltas());
    await Promise.all([...writers, ...folders]);
    await foldAll(team.id);

    // The folded rollup is exactly the samples counted per bucket, key by key, at each of its four
    // levels (number and agent; number, every agent; every number, agent; the team's whole day).
    const db = await getDb();
    const diff = rowsOf(
      await db.execute(sql`WITH samples AS (
          SELECT day, wa_number_id, agent_id, 'first_response' AS metric, report_seconds_bucket(seconds) AS bucket, seconds
          FROM report_responses WHERE team_id = ${team.id}
          UNION ALL
          SELECT day, wa_number_id, agent_id, 'opened', 0, 0 FROM report_conversation_events WHERE team_id = ${team.id} AND kind = 'opened'
        ), s AS (
          SELECT day, l.n AS wa_number_id, l.a AS agent_id, metric, bucket, count(*) AS samples, sum(seconds) AS seconds
          FROM samples CROSS JOIN LATERAL (VALUES (wa_number_id, agent_id), (wa_number_id, -1), (0, agent_id), (0, -1)) l(n, a)
          GROUP BY 1, 2, 3, 4, 5
        ), h AS (SELECT day, wa_number_id, agent_id, metric, bucket, samples, seconds FROM report_histograms WHERE team_id = ${team.id})
        (SELECT * FROM s EXCEPT SELECT * FROM h) UNION ALL (SELECT * FROM h EXCEPT SELECT * FROM s)`),
    );
    expect(diff).toEqual([]);
    const [total] = rowsOf<{ n: number }>(
      await db.execute(sql`SELECT sum(samples)::int AS n FROM report_histograms
        WHERE team_id = ${team.id} AND metric = 'first_response' AND wa_number_id = 0 AND agent_id = -1`),
    );
    expect(Number(total.n)).toBe(times.length);
    const api = apiClient(server.url, team.token);
    const totals = reportSummaryResponse.parse(
      (await api.get(`/api/v1/reports/summary?from=${isoDay(day - 30 * DAY)}&to=${isoDay(Date.now())}`)).body,
    ).data.totals;
    expect(totals.first_responses).toBe(times.length);
    expectClose(totals.first_response_median, exactPercentile(times, 0.5), "median");
    expectClose(totals.first_response_p90, exactPercentile(times, 0.9), "p90");
  });

  it("keeps each team's histograms to itself, folded or not", async () => {
    const day = Date.parse(`${isoDay(Date.now() - 4 * DAY)}T09:00:00Z`);
    const setUp = async (seconds: number[]) => {
      const team = await createTeam();
      const n = await createNumber(team.id);
      const agent = await createAgent(team.id);
      const contacts = await Promise.all(seconds.map(() => createContact(team.id)));
      await writeExchanges(
        team,
        n.id,
        seconds.map((s, i) => ({ contactId: contacts[i].id, agentId: agent.id, seconds: s, answeredAt: day + i * 1000 })),
      );
      return { team, agent };
    };
    const a = await setUp([10, 20, 30]);
    const b = await setUp([1000, 2000, 3000, 4000]);
    const range = `from=${isoDay(day)}&to=${isoDay(day)}`;
    for (const folded of [false, true]) {
      if (folded) {
        await foldAll(a.team.id);
        await foldAll(b.team.id);
      }
      for (const [w, n, median, p90] of [
        [a, 3, 20, 28],
        [b, 4, 2500, 3700],
      ] as const) {
        const api = apiClient(server.url, w.team.token);
        const totals = reportSummaryResponse.parse((await api.get(`/api/v1/reports/summary?${range}`)).body).data.totals;
        expect(totals, `folded ${folded}`).toMatchObject({
          first_responses: n,
          first_response_median: median,
          first_response_p90: p90,
          conversations_opened: n,
        });
        const agents = reportAgentsResponse.parse((await api.get(`/api/v1/reports/agents?${range}`)).body).data.agents;
        // The team's agent, and 0 (the customers' messages, the conversations opened unassigned).
        expect(agents.map((x) => x.agent_id).sort()).toEqual([0, w.agent.id].sort());
        expect(agents.find((x) => x.agent_id === w.agent.id)).toMatchObject({ first_responses: n, first_response_median: median });
      }
    }
  });
});
