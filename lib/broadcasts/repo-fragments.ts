import "server-only";
import { sql } from "drizzle-orm";
import { CANCELLED_TITLE } from "./schemas";

/**
 * SQL pieces the broadcast repo files share: what a broadcast message's row means (cancelled,
 * went out, replied). Queries alias messages `m`, broadcasts `b` and conversations `c`.
 */

export const ids = (list: number[]) =>
  sql.join(
    list.map((n) => sql`${n}::int`),
    sql`, `,
  );

// A message left unsent by a cancel: FAILED with this error (no provider code).
export const IS_CANCELLED = sql`(m.error ->> 'title' = ${CANCELLED_TITLE} AND m.error ->> 'code' IS NULL)`;
// Went out (the provider accepted it): what a reply can be attributed to.
const WENT_OUT = sql`m.status IN ('SENDED', 'SENT', 'DELIVERED', 'READED')`;
/**
 * Replied: the message went out and the customer wrote in the same conversation after it was
 * enqueued (after its scheduled time for a scheduled broadcast). conversations.last_inbound_at is
 * kept by the messages trigger, so this is one index lookup per message, no scan of inbound rows.
 */
export const REPLIED = sql`(${WENT_OUT} AND c.last_inbound_at > greatest(m.created_at, b.scheduled_at))`;
export const CONVERSATION = sql`LEFT JOIN conversations c ON c.team_id = m.team_id AND c.wa_number_id = m.wa_number_id AND c.contact_id = m.contact_id`;
