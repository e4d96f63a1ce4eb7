import type { HistoryPage, Message } from "@/lib/api-client/types";

/** A private note as the thread shows it among the messages (lib/api-client/notes.ts). */
export type ThreadNote = { id: number; agent_name: string | null; body: string; after_message_id: number | null; created_at: string };

/** An emoji a reaction put on a message: the customer's (INBOUND) or the business's (OUTBOUND). */
export type Reaction = { emoji: string; direction: "INBOUND" | "OUTBOUND" };

export type Row =
  | { kind: "day"; key: string; day: string }
  | { kind: "msg"; key: string; m: Message; reactions?: Reaction[]; showRouting?: boolean }
  | { kind: "top"; key: string; more: boolean }
  | { kind: "note"; key: string; note: ThreadNote };

/**
 * Pages arrive newest first (order DESC); the list shows them oldest to newest with a separator
 * per day. A message may appear on two pages when new ones arrive between fetches: ids dedupe it.
 */
export function buildRows(pages: HistoryPage[], hasMore: boolean, notes: ThreadNote[] = []): Row[] {
  const seen = new Set<number>();
  const messages: Message[] = [];
  for (let p = pages.length - 1; p >= 0; p--) {
    const data = pages[p].data;
    for (let i = data.length - 1; i >= 0; i--) {
      if (seen.has(data[i].id)) continue;
      seen.add(data[i].id);
      messages.push(data[i]);
    }
  }
  messages.sort((a, b) => a.id - b.id);
  const reactions = attachReactions(messages);
  const rows: Row[] = [{ kind: "top", key: "top", more: hasMore }];
  let lastDay = "";
  let lastRouting: string | null = null;
  // A note goes right after the message that was the conversation's newest when it was written
  // (`after_message_id`; message times are whole seconds, too coarse to order by); while older
  // pages are still to load, notes written before the oldest loaded message wait for them.
  const after = (n: ThreadNote) => n.after_message_id ?? 0;
  const oldest = messages[0]?.id ?? Infinity;
  const pendingNotes = notes.filter((n) => !hasMore || after(n) >= oldest).sort((a, b) => after(a) - after(b) || a.id - b.id);
  let nextNote = 0;
  const pushNotesBefore = (id: number) => {
    while (nextNote < pendingNotes.length && after(pendingNotes[nextNote]) < id) {
      const note = pendingNotes[nextNote++];
      const day = note.created_at.slice(0, 10);
      if (day !== lastDay) {
        rows.push({ kind: "day", key: `d${day}-n${note.id}`, day });
        lastDay = day;
      }
      rows.push({ kind: "note", key: `n${note.id}`, note });
    }
  };
  for (const m of messages) {
    if (reactions.attached.has(m.id)) continue;
    pushNotesBefore(m.id);
    const day = m.created_at?.slice(0, 10) ?? "";
    if (day !== lastDay) {
      rows.push({ kind: "day", key: `d${day}-${m.id}`, day });
      lastDay = day;
    }
    // A reply of several bubbles was routed once: its note goes under the first of them only.
    const routing =
      m.direction === "INBOUND" && m.routed_to ? JSON.stringify([m.routed_to.kind, m.routed_to.id, m.routed_to.reason]) : null;
    const showRouting = routing !== null && routing !== lastRouting;
    lastRouting = m.direction === "INBOUND" ? routing : null;
    const on = reactions.byTarget.get(m.id);
    rows.push({ kind: "msg", key: `m${m.id}`, m, ...(on?.length ? { reactions: on } : {}), ...(routing ? { showRouting } : {}) });
  }
  pushNotesBefore(Infinity);
  return rows;
}

/**
 * WhatsApp draws a reaction on the message it reacts to, not as a bubble: each `reaction` whose
 * `message_id` (the provider's id) is a loaded message is attached to it; a later reaction from
 * the same side replaces the earlier one, and an empty emoji takes it back. Reactions to messages
 * not loaded stay in the list as their own small line.
 */
function attachReactions(messages: Message[]) {
  const byProviderId = new Map<string, Message>();
  for (const m of messages)
    if (typeof m.provider_message_id === "string" && m.provider_message_id) byProviderId.set(m.provider_message_id, m);
  const attached = new Set<number>();
  const latest = new Map<number, Map<string, string>>();
  for (const m of messages) {
    if (m.type !== "reaction" || !m.payload || Array.isArray(m.payload)) continue;
    const target = typeof m.payload.message_id === "string" ? byProviderId.get(m.payload.message_id) : undefined;
    if (!target || target.id === m.id) continue;
    attached.add(m.id);
    const side = m.direction === "OUTBOUND" ? "OUTBOUND" : "INBOUND";
    const sides = latest.get(target.id) ?? new Map<string, string>();
    sides.set(side, typeof m.payload.emoji === "string" ? m.payload.emoji : "");
    latest.set(target.id, sides);
  }
  const byTarget = new Map<number, Reaction[]>();
  for (const [id, sides] of latest) {
    const list = [...sides]
      .filter(([, emoji]) => emoji)
      .map(([direction, emoji]) => ({ emoji, direction: direction as Reaction["direction"] }));
    if (list.length) byTarget.set(id, list);
  }
  return { attached, byTarget };
}

/** `YYYY-MM-DD` of a Date in local time. */
export function ymd(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}
