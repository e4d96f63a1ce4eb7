import "server-only";
import { sql } from "drizzle-orm";
import { getDb, transaction, type DbOrTx } from "@/db/client";
import { insertEvents } from "@/lib/events/repo";
import {
  dueForProgress,
  failQueued,
  failureCounts,
  hasQueued,
  lockForSweep,
  namesOf,
  repliedCounts,
  statusCounts,
  updateBroadcast,
  type BroadcastRow,
} from "./repo";
import type { BroadcastCounts, BroadcastDto, BroadcastStatus } from "./schemas";

/** Events of one broadcast's progress (its messages changing status) are at most one a second. */
export const PROGRESS_EVERY_MS = 1000;

const emptyCounts = (): BroadcastCounts => ({
  recipients: 0,
  rejected: 0,
  queued: 0,
  sended: 0,
  sent: 0,
  delivered: 0,
  readed: 0,
  failed: 0,
  cancelled: 0,
  replied: 0,
});

type Stats = { counts: BroadcastCounts; failures: { code: number | null; title: string; count: number }[] };

/** Counts per status, replies and failures by code of some broadcasts of a team (three grouped queries). */
export async function statsOf(db: DbOrTx, teamId: number, rows: BroadcastRow[]): Promise<Map<number, Stats>> {
  const ids = rows.map((r) => r.id);
  const [byStatus, replied, failures] = await Promise.all([
    statusCounts(db, teamId, ids),
    repliedCounts(db, teamId, ids),
    failureCounts(db, teamId, ids),
  ]);
  const out = new Map<number, Stats>();
  for (const r of rows) {
    const counts = emptyCounts();
    counts.recipients = r.recipients;
    counts.rejected = r.rejected;
    counts.replied = replied.get(r.id) ?? 0;
    out.set(r.id, { counts, failures: [] });
  }
  for (const s of byStatus) {
    const c = out.get(s.broadcast_id)?.counts;
    if (!c) continue;
    if (s.status === "FAILED") {
      if (s.cancelled) c.cancelled += s.n;
      else c.failed += s.n;
    } else {
      const key = s.status.toLowerCase() as keyof BroadcastCounts;
      if (key in c) c[key] += s.n;
    }
  }
  for (const f of failures) out.get(f.broadcast_id)?.failures.push({ code: f.code, title: f.title, count: f.count });
  return out;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** Broadcast rows as the API shows them, with their counts. */
export async function toDtos(db: DbOrTx, teamId: number, rows: BroadcastRow[]): Promise<BroadcastDto[]> {
  const [names, stats] = await Promise.all([namesOf(db, teamId, rows), statsOf(db, teamId, rows)]);
  return rows.map((r) => {
    const template = names.templates.get(r.templateId);
    const s = stats.get(r.id)!;
    return {
      id: r.id,
      name: r.name,
      wa_number: names.numbers.get(r.waNumberId) ?? "",
      template: { id: r.templateId, name: template?.name ?? "", language: template?.language ?? "" },
      status: r.status,
      audience: r.audience,
      sent_group: r.sentGroup,
      scheduled_at: iso(r.scheduledAt),
      created_at: iso(r.createdAt)!,
      started_at: iso(r.startedAt),
      finished_at: iso(r.finishedAt),
      created_by: r.createdByAgentId == null ? null : { agent_id: r.createdByAgentId, agent_name: r.createdByAgentName },
      counts: s.counts,
      failures_by_code: s.failures,
    };
  });
}

/**
 * A `broadcast.updated` event for the row as it stands, in the caller's transaction (announced
 * when it commits), and the throttle's marks: when and what was last announced.
 */
export async function announce(tx: DbOrTx, row: BroadcastRow, counts?: BroadcastCounts) {
  const c = counts ?? (await statsOf(tx, row.teamId, [row])).get(row.id)!.counts;
  const key = JSON.stringify([row.status, c]);
  await insertEvents(tx, [
    { teamId: row.teamId, type: "broadcast.updated", waNumberId: row.waNumberId, data: { id: row.id, status: row.status, counts: c } },
  ]);
  await updateBroadcast(tx, row.teamId, row.id, { progressAt: sql`now()`, progressKey: key });
}

/**
 * The transitions nobody asks for, applied where the broadcast is read and by the worker's sweep:
 * SCHEDULED → SENDING once its time has come, SENDING → DONE once the whole audience is enqueued
 * and nothing is left QUEUED, and a cancelled broadcast's messages that a worker held during the
 * cancel are failed once given back. Returns the row after them (and whether it changed).
 */
export async function advance(tx: DbOrTx, row: BroadcastRow): Promise<{ row: BroadcastRow; changed: boolean }> {
  let current = row;
  let changed = false;
  const now = Date.now();
  if (current.status === "SCHEDULED" && current.scheduledAt && current.scheduledAt.getTime() <= now) {
    current = await updateBroadcast(tx, row.teamId, row.id, { status: "SENDING", startedAt: current.scheduledAt });
    changed = true;
  }
  if (current.status === "SENDING" && current.enqueuedAt && !(await hasQueued(tx, row.teamId, row.id))) {
    current = await updateBroadcast(tx, row.teamId, row.id, { status: "DONE", finishedAt: sql`now()` });
    changed = true;
  }
  if (current.status === "CANCELLED" && (await hasQueued(tx, row.teamId, row.id))) {
    changed = (await failQueued(tx, row.teamId, row.id)) > 0 || changed;
  }
  return { row: current, changed };
}

/** Whether a row may have a transition due (cheap test before taking a lock). */
export function mayAdvance(row: BroadcastRow): boolean {
  if (row.status === "SCHEDULED") return !!row.scheduledAt && row.scheduledAt.getTime() <= Date.now();
  if (row.status === "SENDING") return !!row.enqueuedAt;
  return row.status === "CANCELLED" && !!row.finishedAt && Date.now() - row.finishedAt.getTime() < 10 * 60_000;
}

/**
 * One sweep (the delivery worker runs it about once a second): each broadcast still moving gets
 * its due transitions and, when its counts changed since its last event, a `broadcast.updated`.
 * A broadcast another process is sweeping is skipped (SKIP LOCKED), and one announced less than a
 * second ago is not due, so any number of workers announce each broadcast at most once a second.
 */
export async function sweepBroadcasts(teamIds?: number[]): Promise<number> {
  const due = await dueForProgress(PROGRESS_EVERY_MS, 50, teamIds);
  let announced = 0;
  for (const { teamId, id } of due) {
    announced += await transaction(async (tx) => {
      const locked = await lockForSweep(tx, teamId, id);
      if (!locked) return 0;
      const { row } = mayAdvance(locked) ? await advance(tx, locked) : { row: locked };
      const counts = (await statsOf(tx, teamId, [row])).get(row.id)!.counts;
      if (JSON.stringify([row.status, counts]) === row.progressKey) {
        await updateBroadcast(tx, teamId, id, { progressAt: sql`now()` });
        return 0;
      }
      await announce(tx, row, counts);
      return 1;
    });
  }
  return announced;
}

/** The broadcast as read: due transitions applied (and announced) first. */
export async function readFresh(row: BroadcastRow): Promise<BroadcastRow> {
  if (!mayAdvance(row)) return row;
  const db = await getDb();
  return db.transaction(async (tx) => {
    const locked = await lockForSweep(tx, row.teamId, row.id);
    if (!locked) return row;
    const { row: after, changed } = await advance(tx, locked);
    if (changed) await announce(tx, after);
    return after;
  });
}

export type { BroadcastStatus };
