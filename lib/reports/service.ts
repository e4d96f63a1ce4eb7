import "server-only";
import { getDb, withReadDb } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError } from "@/lib/http/errors";
import {
  dateOutOfRange,
  DAY_MS,
  daysInclusive,
  isSupportedInstant,
  SUPPORTED_FROM_MS,
  utcDayMs,
  utcDayText,
} from "@/lib/http/supported-dates";
import { STATS_DATE_INVALID, STATS_RANGE_INVALID } from "@/lib/messages/stats-schemas";
import { requireNumber } from "@/lib/numbers/service";
import { teamLabelIds } from "@/lib/labels/repo";
import { LABEL_NOT_FOUND } from "@/lib/labels/schemas";
import { teamAgentExists } from "@/lib/conversations/repo";
import { reportFigures, type FigureRow, type ReportFilter, type ReportGroup } from "./repo";
import { interpolate } from "./buckets";
import {
  REPORT_AGENT_NOT_FOUND,
  REPORT_MAX_DAYS,
  REPORT_RANGE_TOO_LONG,
  type ReportAgent,
  type ReportFigures,
  type ReportQuery,
  type ReportSummary,
} from "./schemas";

const DEFAULT_DAYS = 30;

/** A day of the query as its first instant; refused like the schema refuses it (the service may be called without it). */
function dayMs(field: "from" | "to", text: string): number {
  const ms = utcDayMs(text);
  if (ms === null) throw ApiError.invalid(field, STATS_DATE_INVALID(field));
  if (!isSupportedInstant(ms)) throw ApiError.invalid(field, dateOutOfRange(field));
  return ms;
}

/**
 * The range and filters of a report: missing days default to the 30 days ending today (UTC); a
 * number, label or agent that is not the team's answers 422 like in the other lists (never
 * another team's figures). Days are handled as instants, never compared as texts, and a range
 * longer than REPORT_MAX_DAYS is refused here whatever the defaults made of it: that ceiling is
 * what bounds a summary's day walk and its answer.
 */
async function resolveFilter(ctx: AuthContext, q: ReportQuery): Promise<ReportFilter & { days: number }> {
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const givenFrom = q.from === undefined ? undefined : dayMs("from", q.from);
  const toMs =
    q.to !== undefined ? dayMs("to", q.to) : givenFrom !== undefined ? Math.min(today, givenFrom + (REPORT_MAX_DAYS - 1) * DAY_MS) : today;
  const fromMs = givenFrom ?? Math.max(SUPPORTED_FROM_MS, toMs - (DEFAULT_DAYS - 1) * DAY_MS);
  const days = daysInclusive(fromMs, toMs);
  if (days < 1) throw ApiError.invalid("to", STATS_RANGE_INVALID);
  if (days > REPORT_MAX_DAYS) throw ApiError.invalid("to", REPORT_RANGE_TOO_LONG);
  const f: ReportFilter & { days: number } = { from: utcDayText(fromMs), to: utcDayText(toMs), days };
  if (q.wa_number) f.waNumberId = (await requireNumber(ctx, q.wa_number)).id;
  if (q.label_id !== undefined) {
    if (!(await teamLabelIds(await getDb(), { teamId: ctx.teamId, ids: [q.label_id] })).has(q.label_id))
      throw ApiError.invalid("label_id", LABEL_NOT_FOUND);
    f.labelId = q.label_id;
  }
  if (q.agent_id !== undefined) {
    if (q.agent_id !== 0 && !(await teamAgentExists(await getDb(), { teamId: ctx.teamId, agentId: q.agent_id })))
      throw ApiError.invalid("agent_id", REPORT_AGENT_NOT_FOUND);
    f.agentId = q.agent_id;
  }
  return f;
}

const num = (v: number | string | null | undefined) => (v == null ? 0 : Number(v));
/** Seconds to one decimal (percentile_cont interpolates), null when there was no sample. */
const secs = (v: number | null) => (v == null ? null : Math.round(v * 10) / 10);
const value = (v: number | string | null) => (v == null ? null : Number(v));

/** A metric's percentile from the values at its two ranks (their buckets' means, lib/reports/buckets.ts). */
function pct(n: FigureRow["fr_n"], lo: FigureRow["fr_n"], hi: FigureRow["fr_n"], p: 0.5 | 0.9): number | null {
  return secs(interpolate(p, num(n), value(lo), value(hi)));
}

function figures(r: FigureRow | undefined): ReportFigures {
  if (!r) return EMPTY;
  return {
    first_responses: num(r.fr_n),
    first_response_median: pct(r.fr_n, r.fr_p50_lo, r.fr_p50_hi, 0.5),
    first_response_p90: pct(r.fr_n, r.fr_p90_lo, r.fr_p90_hi, 0.9),
    conversations_opened: num(r.opened_n),
    conversations_resolved: num(r.res_n),
    resolution_median: pct(r.res_n, r.res_p50_lo, r.res_p50_hi, 0.5),
    resolution_p90: pct(r.res_n, r.res_p90_lo, r.res_p90_hi, 0.9),
    messages_in: num(r.messages_in),
    messages_out: num(r.messages_out),
  };
}

/** The figures of a day, agent or range with nothing in it. */
const EMPTY: ReportFigures = {
  first_responses: 0,
  first_response_median: null,
  first_response_p90: null,
  conversations_opened: 0,
  conversations_resolved: 0,
  resolution_median: null,
  resolution_p90: null,
  messages_in: 0,
  messages_out: 0,
};

const keyOf = (k: number | string | null) => (k == null ? null : String(k));

/** Every figure of the report, by key (a day or an agent id; null: the range's total), in one statement. */
async function load(ctx: AuthContext, f: ReportFilter, g: ReportGroup): Promise<Map<string | null, FigureRow>> {
  const rows = await withReadDb(ctx.teamId, (db) => reportFigures(db, { teamId: ctx.teamId, filter: f, g }));
  return new Map(rows.map((r) => [keyOf(r.key), r]));
}

/** GET /api/v1/reports/summary: every day of the range (empty days included) and the totals. */
export async function reportSummary({ ctx, input }: { ctx: AuthContext; input: ReportQuery }): Promise<ReportSummary> {
  const f = await resolveFilter(ctx, input);
  const rows = await load(ctx, f, "day");
  const days = [];
  // By date arithmetic, f.days of them (at most REPORT_MAX_DAYS): one formatting per day (this
  // loop was a twentieth of the request's own CPU with two), from the date's fields (a fifth of
  // toISOString().slice's price).
  const first = utcDayMs(f.from)!;
  for (let i = 0; i < f.days; i++) {
    const day = utcDayText(first + i * DAY_MS);
    days.push({ day, ...figures(rows.get(day)) });
  }
  return { from: f.from, to: f.to, totals: figures(rows.get(null)), days };
}

/** GET /api/v1/reports/agents: the range's figures per agent (0: the API or unassigned), busiest first. */
export async function reportAgents({ ctx, input }: { ctx: AuthContext; input: ReportQuery }) {
  const f = await resolveFilter(ctx, input);
  const rows = await load(ctx, f, "agent");
  const agents: ReportAgent[] = [...rows.values()].map((r) => ({
    agent_id: Number(r.key),
    agent_name: r.agent_name ?? null,
    ...figures(r),
  }));
  agents.sort((a, b) => b.messages_out - a.messages_out || b.first_responses - a.first_responses || a.agent_id - b.agent_id);
  return { from: f.from, to: f.to, agents };
}
