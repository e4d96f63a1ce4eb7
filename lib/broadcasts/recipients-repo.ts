import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type DbOrTx } from "@/db/client";
import { CONVERSATION, IS_CANCELLED, REPLIED } from "./repo-fragments";
import type { RecipientStatusFilter } from "./schemas";

/** The SQL of a broadcast's recipients (the page and the CSV export) and its timeline. Every query filters by team. */

export type RecipientRow = {
  kind: "m" | "r";
  id: number;
  contact_id: number;
  name: string | null;
  customer_number: string | null;
  update_id: string | null;
  status: string;
  error: { code: number | null; title: string } | null;
  rejected_errors: Record<string, string[]> | null;
  replied: boolean;
  updated_at: Date | string;
};

function recipientFilter(status: RecipientStatusFilter | undefined): { messages: SQL | null; rejections: boolean } {
  if (!status) return { messages: sql`TRUE`, rejections: true };
  if (status === "REJECTED") return { messages: null, rejections: true };
  if (status === "CANCELLED") return { messages: sql`m.status = 'FAILED' AND ${IS_CANCELLED}`, rejections: false };
  if (status === "FAILED") return { messages: sql`m.status = 'FAILED' AND NOT coalesce(${IS_CANCELLED}, false)`, rejections: false };
  return { messages: sql`m.status = ${status}`, rejections: false };
}

function recipientsUnion(
  teamId: number,
  {
    broadcastId,
    status,
    after,
  }: { broadcastId: number; status: RecipientStatusFilter | undefined; after?: { kind: "m" | "r"; id: number } },
) {
  const f = recipientFilter(status);
  const parts: SQL[] = [];
  if (f.messages && after?.kind !== "r") {
    parts.push(sql`
      SELECT 'm' AS kind, m.id, m.contact_id, ct.name, m.customer_number, m.update_id::text AS update_id, m.status,
        CASE WHEN m.status = 'FAILED' THEN m.error END AS error, NULL::jsonb AS rejected_errors,
        coalesce(${REPLIED}, false) AS replied, m.status_updated_at AS updated_at
      FROM messages m JOIN broadcasts b ON b.team_id = m.team_id AND b.id = m.broadcast_id
        JOIN contacts ct ON ct.team_id = m.team_id AND ct.id = m.contact_id ${CONVERSATION}
      WHERE m.team_id = ${teamId} AND m.broadcast_id = ${broadcastId} AND ${f.messages} ${after?.kind === "m" ? sql`AND m.id > ${after.id}` : sql``}`);
  }
  if (f.rejections) {
    parts.push(sql`
      SELECT 'r' AS kind, r.id, r.contact_id, ct.name, ct.customer_number, NULL AS update_id, 'REJECTED' AS status,
        NULL::jsonb AS error, r.errors AS rejected_errors, false AS replied, r.created_at AS updated_at
      FROM broadcast_rejections r JOIN contacts ct ON ct.team_id = r.team_id AND ct.id = r.contact_id
      WHERE r.team_id = ${teamId} AND r.broadcast_id = ${broadcastId} ${after?.kind === "r" ? sql`AND r.id > ${after.id}` : sql``}`);
  }
  return parts;
}

const toRecipientRow = (r: RecipientRow): RecipientRow => ({
  ...r,
  id: Number(r.id),
  contact_id: Number(r.contact_id),
  replied: Boolean(r.replied),
});

/** A page of a broadcast's recipients: its messages in id order, then its rejected contacts. */
export async function listRecipientRows(
  db: DbOrTx,
  {
    teamId,
    broadcastId,
    status,
    limit,
    offset,
  }: { teamId: number; broadcastId: number; status: RecipientStatusFilter | undefined; limit: number; offset: number },
): Promise<{ rows: RecipientRow[]; total: number }> {
  const parts = recipientsUnion(teamId, { broadcastId, status });
  if (!parts.length) return { rows: [], total: 0 };
  const union = sql.join(parts, sql` UNION ALL `);
  const [rows, count] = await Promise.all([
    db.execute(sql`SELECT * FROM (${union}) u ORDER BY (kind = 'r'), id LIMIT ${limit} OFFSET ${offset}`),
    db.execute(sql`SELECT count(*)::int AS n FROM (${union}) u`),
  ]);
  return { rows: rowsOf<RecipientRow>(rows).map(toRecipientRow), total: Number(rowsOf<{ n: number }>(count)[0]?.n ?? 0) };
}

/** The next `limit` recipients after `after` in the same order (keyset, for the streamed CSV). */
export async function recipientRowsAfter(
  db: DbOrTx,
  {
    teamId,
    broadcastId,
    status,
    after,
    limit,
  }: {
    teamId: number;
    broadcastId: number;
    status: RecipientStatusFilter | undefined;
    after: { kind: "m" | "r"; id: number } | undefined;
    limit: number;
  },
): Promise<RecipientRow[]> {
  const parts = recipientsUnion(teamId, { broadcastId, status, after });
  if (!parts.length) return [];
  const res = await db.execute(sql`SELECT * FROM (${sql.join(parts, sql` UNION ALL `)}) u ORDER BY (kind = 'r'), id LIMIT ${limit}`);
  return rowsOf<RecipientRow>(res).map(toRecipientRow);
}

export type TimelineRow = { at: Date | string; sent: number; delivered: number; read: number; failed: number };

/** Applied status changes of the broadcast's messages per minute or hour (cancels left out). */
export async function timelineRows(
  db: DbOrTx,
  { teamId, broadcastId, bucket }: { teamId: number; broadcastId: number; bucket: "minute" | "hour" },
): Promise<TimelineRow[]> {
  const res = await db.execute(sql`
    SELECT date_trunc(${bucket}, e.at) AS at,
      count(*) FILTER (WHERE e.status = 'SENDED')::int AS sent,
      count(*) FILTER (WHERE e.status = 'DELIVERED')::int AS delivered,
      count(*) FILTER (WHERE e.status = 'READED')::int AS read,
      count(*) FILTER (WHERE e.status = 'FAILED' AND NOT (e.raw ? 'cancelled_broadcast'))::int AS failed
    FROM messages m JOIN message_status_history e ON e.message_id = m.id AND e.team_id = m.team_id
    WHERE m.team_id = ${teamId} AND m.broadcast_id = ${broadcastId} AND e.applied = 1
      AND e.status IN ('SENDED', 'DELIVERED', 'READED', 'FAILED')
    GROUP BY 1 ORDER BY 1`);
  return rowsOf<TimelineRow>(res);
}
