import "server-only";
import { getTableColumns, SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { messages } from "@/db/schema";

/** A message due at once: the database's now() when the row is written. */
export const DUE_NOW: SQL = sql`now()`;

/** An outbound message's row as lib/messages/queued-row.ts builds it (its due time may be SQL: `now()`). */
export type OutboundRow = Omit<typeof messages.$inferInsert, "nextAttemptAt"> & { nextAttemptAt: SQL | Date };

/*
 * Both statements ship their rows as ONE jsonb parameter expanded by Postgres
 * (jsonb_to_recordset): a VALUES list of 1,000 rows × 25 columns costs the driver and the planner
 * 25,000 bind parameters, about 4× the time of the whole JSON route (measured on Postgres 15:
 * 1,000 messages in ~800 ms with VALUES).
 */

/**
 * Inserts outbound rows (all with the same keys, as outboundRow builds them) in one statement: a
 * single send, a reply, a bulk send. Values that are SQL (such as `now()`) are taken from the
 * first row for every row.
 */
export async function insertOutbound(db: DbOrTx, rows: OutboundRow[]): Promise<void> {
  if (!rows.length) return;
  const columns = getTableColumns(messages) as Record<string, { name: string; getSQLType(): string }>;
  const first = rows[0] as Record<string, unknown>;
  const keys = Object.keys(first).filter((k) => !(first[k] instanceof SQL));
  const sqlKeys = Object.keys(first).filter((k) => first[k] instanceof SQL);
  const records = rows.map((r) => {
    const record: Record<string, unknown> = {};
    for (const k of keys) record[columns[k].name] = (r as Record<string, unknown>)[k] ?? null;
    return record;
  });
  const names = [...keys, ...sqlKeys].map((k) => sql.identifier(columns[k].name));
  const definition = sql.raw(keys.map((k) => `"${columns[k].name}" ${columns[k].getSQLType()}`).join(", "));
  await db.execute(sql`
    INSERT INTO messages (${sql.join(names, sql`, `)})
    SELECT ${sql.join([...keys.map((k) => sql`r.${sql.identifier(columns[k].name)}`), ...sqlKeys.map((k) => first[k] as SQL)], sql`, `)}
    FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS r(${definition})`);
}

/** One recipient of a batch: contact, update_id, filled header/body texts (null: the payload's as is), send_params. */
export type BatchRecipient = {
  c: number;
  u: string;
  n: string;
  i: string | null;
  h: string | null;
  b: string | null;
  /** The filled BUTTONS component (null: the payload's as is). */
  k?: unknown;
  s: unknown;
};
/** Where in the shared payload each recipient's filled texts go (null: nowhere, all share the payload). */
export type PayloadSlots = { headerAt: number | null; bodyAt: number | null; buttonsAt: number | null };

/**
 * Inserts a batch of recipients of one shared row (a broadcast's) in one INSERT … SELECT: only
 * what differs per recipient travels (one jsonb parameter of small records); the shared columns
 * are parameters once, and each payload is the shared one with the recipient's texts set in SQL
 * (a fifth of the bytes of shipping whole rows, measured on the bench's 100,000-recipient broadcast).
 */
export async function insertOutboundBatch(
  db: DbOrTx,
  { shared, slots, rows }: { shared: OutboundRow; slots: PayloadSlots; rows: BatchRecipient[] },
) {
  if (!rows.length) return;
  const c = shared;
  let payload = sql`${JSON.stringify(c.payload)}::jsonb`;
  if (slots.headerAt !== null)
    payload = sql`jsonb_set(${payload}, ${`{components,${slots.headerAt},text}`}::text[], coalesce(to_jsonb(r.h), ${payload} #> ${`{components,${slots.headerAt},text}`}::text[]))`;
  if (slots.bodyAt !== null)
    payload = sql`jsonb_set(${payload}, ${`{components,${slots.bodyAt},text}`}::text[], coalesce(to_jsonb(r.b), ${payload} #> ${`{components,${slots.bodyAt},text}`}::text[]))`;
  if (slots.buttonsAt !== null)
    payload = sql`jsonb_set(${payload}, ${`{components,${slots.buttonsAt}}`}::text[], coalesce(r.k, ${payload} #> ${`{components,${slots.buttonsAt}}`}::text[]))`;
  const due = c.nextAttemptAt instanceof SQL ? c.nextAttemptAt : sql`${c.nextAttemptAt.toISOString()}::timestamptz`;
  await db.execute(sql`
    INSERT INTO messages (team_id, wa_number_id, contact_id, update_id, customer_number, customer_id, sender, agent_id, agent_name,
      direction, type, status, payload, template_id, template_name, template_language, send_params, media_path, sent_group,
      response_handler, campaign_id, bot_id, next_attempt_at, broadcast_id)
    SELECT ${c.teamId}::int, ${c.waNumberId}::int, r.c, r.u, r.n, r.i, ${c.sender}, ${c.agentId ?? 0}::int, ${c.agentName ?? null},
      ${c.direction}, ${c.type}, ${c.status}, ${payload}, ${c.templateId ?? null}::int, ${c.templateName ?? null},
      ${c.templateLanguage ?? null}, r.s, ${c.mediaPath ?? null}, ${c.sentGroup ?? null}, ${c.responseHandler ?? null},
      ${c.campaignId ?? null}::int, ${c.botId ?? null}::int, ${due}, ${c.broadcastId ?? null}::int
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(c int, u uuid, n text, i text, h text, b text, k jsonb, s jsonb)
    ORDER BY r.c`);
}
