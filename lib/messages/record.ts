import type { messages } from "@/db/schema";
import { config } from "@/lib/config";
import type { HistoryExtra, HistoryRecord } from "./history-schemas";

/** The columns a history record is built from (spec 2.4); any wider message row fits. */
export type HistoryRow = Pick<
  typeof messages.$inferSelect,
  "id" | "customerNumber" | "customerId" | "sender" | "direction" | "type" | "status" | "createdAt" | "payload" | "agentId" | "agentName"
>;

// Building an Intl formatter costs far more than using one; keep one per zone.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    // sv-SE writes dates as "YYYY-MM-DD HH:mm:ss", the contract's format, with no date library.
    f = new Intl.DateTimeFormat("sv-SE", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** `YYYY-MM-DD HH:mm:ss` wall-clock time of `date` in APP_TIMEZONE (ruling 13). */
export function formatLocal(date: Date, timeZone = config.timezone): string {
  return formatterFor(timeZone).format(date);
}

/** A message row as the contract's history record (spec 2.4), for every endpoint that returns one. */
export function toHistoryRecord(row: HistoryRow): HistoryRecord {
  const created = row.createdAt instanceof Date ? row.createdAt : new Date(row.createdAt);
  return {
    id: row.id,
    customer_number: row.customerNumber ?? null,
    customer_id: row.customerId ?? null,
    sender: row.sender ?? null,
    direction: row.direction ?? null,
    type: row.type ?? null,
    status: row.status ?? null,
    created_at: formatLocal(created),
    timestamp: Math.floor(created.getTime() / 1000),
    payload: (row.payload ?? null) as HistoryRecord["payload"],
    agent_id: row.agentId ?? 0,
    agent_name: row.agentName ?? null,
  };
}

/**
 * The 2.4 record plus the extras asked for with `include=` (the contract's shape stays exact by
 * default; extras come after its fields).
 */
export function toHistoryRecordWith(
  extras: readonly HistoryExtra[],
): (
  row: HistoryRow & Partial<Pick<typeof messages.$inferSelect, "updateId" | "error" | "routedTo" | "providerMessageId">>,
) => HistoryRecord {
  if (extras.length === 0) return toHistoryRecord;
  const withUpdate = extras.includes("update_id");
  const withError = extras.includes("error");
  const withRouting = extras.includes("routed_to");
  const withProviderId = extras.includes("provider_message_id");
  return (row) => {
    const rec: HistoryRecord & { update_id?: string; error?: unknown; routed_to?: unknown; provider_message_id?: string | null } =
      toHistoryRecord(row);
    if (withUpdate) rec.update_id = row.updateId ?? undefined;
    if (withError) rec.error = row.error ?? null;
    if (withRouting) rec.routed_to = row.routedTo ?? null;
    if (withProviderId) rec.provider_message_id = row.providerMessageId ?? null;
    return rec;
  };
}
