import type { HistoryPage, Message } from "@/lib/api-client/types";

export type Row =
  | { kind: "day"; key: string; day: string }
  | { kind: "msg"; key: string; m: Message }
  | { kind: "top"; key: string; more: boolean };

/**
 * Pages arrive newest first (order DESC); the list shows them oldest to newest with a separator
 * per day. A message may appear on two pages when new ones arrive between fetches: ids dedupe it.
 */
export function buildRows(pages: HistoryPage[], hasMore: boolean): Row[] {
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
  const rows: Row[] = [{ kind: "top", key: "top", more: hasMore }];
  let lastDay = "";
  for (const m of messages) {
    const day = m.created_at?.slice(0, 10) ?? "";
    if (day !== lastDay) {
      rows.push({ kind: "day", key: `d${day}-${m.id}`, day });
      lastDay = day;
    }
    rows.push({ kind: "msg", key: `m${m.id}`, m });
  }
  return rows;
}

/** `YYYY-MM-DD` of a Date in local time. */
export function ymd(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}
