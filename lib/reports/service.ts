import "server-only";
import { getDb } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError } from "@/lib/http/errors";
import { requireNumber } from "@/lib/numbers/service";
import { teamLabelIds } from "@/lib/labels/repo";
import { LABEL_NOT_FOUND } from "@/lib/labels/schemas";
import { teamAgentExists } from "@/lib/conversations/repo";
import { agentNames, messageFigures, timeFigures, type CountRow, type ReportFilter, type ReportGroup, type TimeRow } from "./repo";
import { interpolate } from "./buckets";
import {
  REPORT_AGENT_NOT_FOUND,
  REPORT_MAX_DAYS,
  REPORT_RANGE_TOO_LONG,
  daysBetween,
  type ReportAgent,
  type ReportFigures,
  type ReportQuery,
  type ReportSummary,
} from "./schemas";

const DEFAULT_DAYS = 30;

function isoDay(t: number): string {
  return new Date(t).toISOString().slice(0, 10);
}

/**
 * The range and filters of a report: missing days default to the 30 days ending today (UTC); a
 * number, label or agent that is not the team's answers 422 like in the other lists (never
 * another team's figures).
 */
async function resolveFilter(ctx: AuthContext, q: ReportQuery): Promise<ReportFilter> {
  const to = q.to ?? (q.from ? isoDay(Math.min(Date.now(), Date.parse(q.from) + (REPORT_MAX_DAYS - 1) * 86_400_000)) : isoDay(Date.now()));
  const from = q.from ?? isoDay(Date.parse(to) - (DEFAULT_DAYS - 1) * 86_400_000);
  if (to < from) throw ApiError.invalid("to", "El campo to debe ser una fecha igual o posterior a from.");
  if (daysBetween(from, to) > REPORT_MAX_DAYS) throw ApiError.invalid("to", REPORT_RANGE_TOO_LONG);
  const f: ReportFilter = { from, to };
  if (q.wa_number) f.waNumberId = (await requireNumber(ctx, q.wa_number)).id;
  if (q.label_id !== undefined) {
    if (!(await teamLabelIds(await getDb(), ctx.teamId, [q.label_id])).has(q.label_id)) throw ApiError.invalid("label_id", LABEL_NOT_FOUND);
    f.labelId = q.label_id;
  }
  if (q.agent_id !== undefined) {
    if (q.agent_id !== 0 && !(await teamAgentExists(ctx.teamId, q.agent_id))) throw ApiError.invalid("agent_id", REPORT_AGENT_NOT_FOUND);
    f.agentId = q.agent_id;
  }
  return f;
}

const num = (v: number | string | null | undefined) => (v == null ? 0 : Number(v));
/** Seconds to one decimal (percentile_cont interpolates), null when there was no sample. */
const secs = (v: number | null) => (v == null ? null : Math.round(v * 10) / 10);
const value = (v: number | string | null) => (v == null ? null : Number(v));

/** A metric's percentile from the values at its two ranks (their buckets' means, lib/reports/buckets.ts). */
function pct(t: TimeRow | undefined, p: 0.5 | 0.9): number | null {
  if (!t) return null;
  const [lo, hi] = p === 0.5 ? [t.p50_lo, t.p50_hi] : [t.p90_lo, t.p90_hi];
  return secs(interpolate(p, num(t.n), value(lo), value(hi)));
}

type Times = Partial<Record<TimeRow["metric"], TimeRow>>;

function figures(t: Times = {}, c?: CountRow): ReportFigures {
  return {
    first_responses: num(t.first_response?.n),
    first_response_median: pct(t.first_response, 0.5),
    first_response_p90: pct(t.first_response, 0.9),
    conversations_opened: num(t.opened?.n),
    conversations_resolved: num(t.resolution?.n),
    resolution_median: pct(t.resolution, 0.5),
    resolution_p90: pct(t.resolution, 0.9),
    messages_in: num(c?.messages_in),
    messages_out: num(c?.messages_out),
  };
}

const keyOf = (k: number | string | null) => (k == null ? null : String(k));

async function load(ctx: AuthContext, f: ReportFilter, g: ReportGroup) {
  const [t, c] = await Promise.all([timeFigures(ctx.teamId, f, g), messageFigures(ctx.teamId, f, g)]);
  const times = new Map<string | null, Times>();
  for (const row of t) {
    const k = keyOf(row.key);
    times.set(k, { ...times.get(k), [row.metric]: row });
  }
  return { t: times, c: new Map(c.map((x) => [keyOf(x.key), x])) };
}

/** GET /api/v1/reports/summary: every day of the range (empty days included) and the totals. */
export async function reportSummary({ ctx, input }: { ctx: AuthContext; input: ReportQuery }): Promise<ReportSummary> {
  const f = await resolveFilter(ctx, input);
  const { t, c } = await load(ctx, f, "day");
  const days = [];
  for (let at = Date.parse(f.from); isoDay(at) <= f.to; at += 86_400_000) {
    const day = isoDay(at);
    days.push({ day, ...figures(t.get(day), c.get(day)) });
  }
  return { from: f.from, to: f.to, totals: figures(t.get(null), c.get(null)), days };
}

/** GET /api/v1/reports/agents: the range's figures per agent (0: the API or unassigned), busiest first. */
export async function reportAgents({ ctx, input }: { ctx: AuthContext; input: ReportQuery }) {
  const f = await resolveFilter(ctx, input);
  const { t, c } = await load(ctx, f, "agent");
  const ids = [...new Set([...t.keys(), ...c.keys()])].filter((k): k is string => k != null).map(Number);
  const names = await agentNames(
    ctx.teamId,
    ids.filter((i) => i > 0),
  );
  const agents: ReportAgent[] = ids.map((id) => ({
    agent_id: id,
    agent_name: names.get(id) ?? null,
    ...figures(t.get(String(id)), c.get(String(id))),
  }));
  agents.sort((a, b) => b.messages_out - a.messages_out || b.first_responses - a.first_responses || a.agent_id - b.agent_id);
  return { from: f.from, to: f.to, agents };
}
