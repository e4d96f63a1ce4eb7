import type { BroadcastCounts } from "@/lib/api-client/types";

/**
 * What the pages read from a broadcast's counts. Each count is a recipient's current status
 * (exclusive: a read message counts only in `readed`; BROADCAST-API.md), so a stage of the funnel
 * is the sum of the statuses at or past it; `replied` overlaps them and `rejected` never queued.
 */
export function messagesOf(c: BroadcastCounts): number {
  return c.queued + c.sended + c.sent + c.delivered + c.readed + c.failed + c.cancelled;
}

/** Messages the worker is done with (sent on, failed, or cancelled before sending). */
export function progressOf(c: BroadcastCounts): { done: number; total: number; percent: number } {
  const total = messagesOf(c);
  const done = total - c.queued;
  return { done, total, percent: total === 0 ? 0 : Math.floor((done / total) * 100) };
}

export type FunnelStage = "queued" | "sent" | "delivered" | "read" | "replied";
export const FUNNEL_STAGES: FunnelStage[] = ["queued", "sent", "delivered", "read", "replied"];

export function funnelOf(c: BroadcastCounts): Record<FunnelStage | "failed", number> {
  const read = c.readed;
  const delivered = c.delivered + read;
  const sent = c.sended + c.sent + delivered;
  return { queued: messagesOf(c), sent, delivered, read, replied: c.replied, failed: c.failed };
}
