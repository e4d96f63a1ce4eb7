import "server-only";
import { transaction, withReadDb } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { requireNumber } from "@/lib/numbers/service";
import { foldMessageStatsDeltas, sumMessageStats } from "./stats-repo";
import { OUTBOUND_STATUSES, type FailureByCode, type MessageStats, type MessageStatsQuery } from "./stats-schemas";

/**
 * GET /api/v1/messages/stats: the team's OUTBOUND messages by status, and the failed ones by
 * provider error code, for any sent_group, template name, company number and range of UTC days.
 * A number that is not the team's answers 422 like in a send (never another team's counts).
 */
export async function messageStats({ ctx, input }: { ctx: AuthContext; input: MessageStatsQuery }): Promise<MessageStats> {
  const waNumberId = input.wa_number ? (await requireNumber(ctx, input.wa_number)).id : undefined;
  const filter = { waNumberId, template: input.template, sentGroup: input.sent_group, from: input.from, to: input.to };
  const rows = await withReadDb(ctx.teamId, (db) => sumMessageStats(db, { teamId: ctx.teamId, filter }));
  const byStatus = Object.fromEntries(OUTBOUND_STATUSES.map((s) => [s, 0])) as MessageStats["by_status"];
  const failures = new Map<number, FailureByCode & { best: number }>();
  let total = 0;
  for (const r of rows) {
    if (!(r.status in byStatus)) continue;
    byStatus[r.status as keyof typeof byStatus] += r.messages;
    total += r.messages;
    if (r.status !== "FAILED") continue;
    // One entry per code; its title is the one most of those failures carried.
    const f = failures.get(r.error_code);
    if (!f) failures.set(r.error_code, { code: r.error_code || null, title: r.error_title, count: r.messages, best: r.messages });
    else {
      f.count += r.messages;
      if (r.messages > f.best) Object.assign(f, { title: r.error_title, best: r.messages });
    }
  }
  const failures_by_code = [...failures.values()]
    .map(({ code, title, count }) => ({ code, title, count }))
    .sort((a, b) => b.count - a.count || (a.code ?? 0) - (b.code ?? 0));
  return { total, by_status: byStatus, failures_by_code };
}

/**
 * One run of the message_stats fold (stats-repo.ts foldMessageStatsDeltas) in its own transaction:
 * the moved count, or -1 when another process was folding. The "message_stats fold" chore.
 */
export function foldMessageStats(): Promise<number> {
  return transaction((tx) => foldMessageStatsDeltas(tx));
}
