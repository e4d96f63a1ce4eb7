import type { BroadcastCounts } from "./schemas";

/**
 * What the broadcast pages read from a broadcast's counts (pure: the browser imports it). Each
 * count is a recipient's current status (exclusive: a read message counts only in `readed`;
 * BROADCAST-API.md), so a stage of the funnel is the sum of the statuses at or past it; `replied`
 * overlaps them and `rejected` never queued.
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

/** The funnel's bars in the order drawn: its stages, queued → sent → delivered → read → replied, then the failures beside them. */
export const FUNNEL_BARS = ["queued", "sent", "delivered", "read", "replied", "failed"] as const;
export type FunnelBar = (typeof FUNNEL_BARS)[number];

/** The funnel of a broadcast, bar by bar in FUNNEL_BARS' order. */
export function funnelOf(c: BroadcastCounts): { stage: FunnelBar; value: number }[] {
  const read = c.readed;
  const delivered = c.delivered + read;
  const sent = c.sended + c.sent + delivered;
  const value: Record<FunnelBar, number> = { queued: messagesOf(c), sent, delivered, read, replied: c.replied, failed: c.failed };
  return FUNNEL_BARS.map((stage) => ({ stage, value: value[stage] }));
}
