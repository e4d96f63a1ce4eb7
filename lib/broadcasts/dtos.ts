import "server-only";
import type { DbOrTx } from "@/db/client";
import { failureCounts, repliedCounts, statusCounts } from "./counts-repo";
import { broadcastPlans } from "./messaging-limit";
import { namesOf, type BroadcastRow } from "./repo";
import type { BroadcastCounts, BroadcastDto } from "./schemas";

/** Broadcast rows as the API shows them: what is stored, with its counts (reads only). */

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
    statusCounts(db, { teamId, broadcastIds: ids }),
    repliedCounts(db, { teamId, broadcastIds: ids }),
    failureCounts(db, { teamId, broadcastIds: ids }),
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
  const [names, stats, plans] = await Promise.all([
    namesOf(db, { teamId, rows }),
    statsOf(db, teamId, rows),
    broadcastPlans(db, teamId, rows),
  ]);
  return rows.map((r) => {
    const template = names.templates.get(r.templateId);
    const s = stats.get(r.id)!;
    return {
      id: r.id,
      name: r.name,
      wa_number: names.numbers.get(r.waNumberId) ?? "",
      template: { id: r.templateId, name: template?.name ?? "", language: template?.language ?? "" },
      status: r.status,
      paused_reason: r.status === "PAUSED" ? r.pausedReason : null,
      audience: r.audience,
      sent_group: r.sentGroup,
      scheduled_at: iso(r.scheduledAt),
      created_at: iso(r.createdAt)!,
      started_at: iso(r.startedAt),
      finished_at: iso(r.finishedAt),
      created_by: r.createdByAgentId == null ? null : { agent_id: r.createdByAgentId, agent_name: r.createdByAgentName },
      counts: s.counts,
      failures_by_code: s.failures,
      messaging_limit: plans.get(r.id) ?? null,
    };
  });
}
