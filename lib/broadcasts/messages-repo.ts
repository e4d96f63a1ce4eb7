import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type DbOrTx } from "@/db/client";
import { marketingRefusedSql } from "@/lib/contacts/opt-out-repo";
import { CANCELLED_TITLE, type BroadcastStatus } from "./schemas";

/**
 * The SQL a broadcast's lifecycle runs on its messages (lifecycle.ts decides when): park, unpark
 * and fail its QUEUED rows, and the delivery worker's last check and give-back of one claimed
 * message. Every statement but the worker's two (which read by the message's primary key and join
 * on its team) filters by team; the row-wide ones run after the broadcast row is locked.
 */

/** `'A', 'B'` as bound parameters: the broadcast states a statement accepts, as lifecycle.ts names them. */
const states = (list: readonly BroadcastStatus[]) =>
  sql.join(
    list.map((s) => sql`${s}`),
    sql`, `,
  );

/** Pause: the broadcast's queued messages leave the queue (next_attempt_at NULL is never due). */
export async function parkQueued(db: DbOrTx, { teamId, id }: { teamId: number; id: number }) {
  await db.execute(sql`
    UPDATE messages SET next_attempt_at = NULL
    WHERE team_id = ${teamId} AND broadcast_id = ${id} AND status = 'QUEUED' AND next_attempt_at IS NOT NULL`);
}

/** Resume: the parked messages are due again at `at` (the send pacing per number applies as always). */
export async function unparkQueued(db: DbOrTx, { teamId, id, at }: { teamId: number; id: number; at: Date }) {
  await db.execute(sql`
    UPDATE messages SET next_attempt_at = ${at.toISOString()}::timestamptz
    WHERE team_id = ${teamId} AND broadcast_id = ${id} AND status = 'QUEUED' AND next_attempt_at IS NULL`);
}

/** How a broadcast's messages are routed (lib/routing/service.ts resolveRoute reads these three). */
export type RoutingKey = { responseHandler: "CAMPAIGN" | "CHATBOT" | null; botId: number | null; campaignId: number | null };

/** The routings of the broadcast's messages still QUEUED (one, unless its rows were edited by hand). */
export async function queuedRoutings(db: DbOrTx, { teamId, id }: { teamId: number; id: number }): Promise<RoutingKey[]> {
  const res = await db.execute(sql`
    SELECT DISTINCT response_handler, bot_id, campaign_id FROM messages
    WHERE team_id = ${teamId} AND broadcast_id = ${id} AND status = 'QUEUED'`);
  return rowsOf<{ response_handler: RoutingKey["responseHandler"]; bot_id: number | null; campaign_id: number | null }>(res).map((r) => ({
    responseHandler: r.response_handler,
    botId: r.bot_id,
    campaignId: r.campaign_id,
  }));
}

/** A routing whose target has a webhook URL: its cancelled messages are reported there. */
export type CancelWebhook = RoutingKey & { targetKind: "bot" | "campaign"; targetId: number; url: string };

/**
 * Cancel: QUEUED → FAILED "Difusión cancelada", with their audit events, and for messages routed
 * to a bot or campaign with a webhook URL (`webhooks`, resolved by the caller) a `message.status`
 * delivery each, as a send that failed gets (lib/delivery/status.ts queueStatusWebhook): the
 * payload is lib/outgoing-webhooks/queue.ts messageStatusPayload's, built here for every row at
 * once. A message a worker holds (live lease) is only parked here: the worker checks the
 * broadcast just before its send and gives it back (claimMaySend / giveBackClaim below), and the
 * next sweep fails it; failing it under the worker could record as cancelled a send that has just
 * left. Returns how many were failed now.
 */
export async function failQueued(
  db: DbOrTx,
  { teamId, id, webhooks = [] }: { teamId: number; id: number; webhooks?: CancelWebhook[] },
): Promise<number> {
  await parkQueued(db, { teamId, id });
  const error = JSON.stringify({ code: null, title: CANCELLED_TITLE });
  const targets = JSON.stringify(
    webhooks.map((w) => ({
      rh: w.responseHandler,
      bot: w.botId,
      campaign: w.campaignId,
      kind: w.targetKind,
      target: w.targetId,
      url: w.url,
    })),
  );
  const res = await db.execute(sql`
    WITH failed AS (
      UPDATE messages SET status = 'FAILED', error = ${error}::jsonb, status_updated_at = now(), locked_until = NULL
      WHERE team_id = ${teamId} AND broadcast_id = ${id} AND status = 'QUEUED' AND (locked_until IS NULL OR locked_until < now())
      RETURNING id, team_id, wa_number_id, update_id, customer_number, error, provider_message_id, status_updated_at,
        response_handler, bot_id, campaign_id
    ), logged AS (
      INSERT INTO message_status_history (team_id, message_id, status, raw)
      SELECT team_id, id, 'FAILED', jsonb_build_object('error', ${error}::jsonb, 'cancelled_broadcast', ${id}::int) FROM failed
    ), targets AS (
      SELECT * FROM jsonb_to_recordset(${targets}::jsonb)
        AS t(rh text, bot integer, campaign integer, kind text, target integer, url text)
    ), reported AS (
      INSERT INTO webhook_deliveries (team_id, target_kind, target_id, url, event, message_id, payload)
      SELECT f.team_id, t.kind, t.target, t.url, 'message.status', f.id, jsonb_build_object(
        'event', 'message.status',
        'occurred_at', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'data', jsonb_build_object(
          'update_id', f.update_id, 'wa_number', n.number, 'customer_number', f.customer_number,
          'status', 'FAILED', 'previous_status', 'QUEUED', 'error', f.error,
          'provider_message_id', f.provider_message_id,
          'timestamp', floor(extract(epoch FROM f.status_updated_at))::bigint))
      FROM failed f
      JOIN targets t ON t.rh IS NOT DISTINCT FROM f.response_handler
        AND t.bot IS NOT DISTINCT FROM f.bot_id AND t.campaign IS NOT DISTINCT FROM f.campaign_id
      JOIN wa_numbers n ON n.team_id = f.team_id AND n.id = f.wa_number_id
    )
    SELECT count(*)::int AS n FROM failed`);
  return Number(rowsOf<{ n: number }>(res)[0]?.n ?? 0);
}

export async function hasQueued(db: DbOrTx, { teamId, id }: { teamId: number; id: number }): Promise<boolean> {
  const res = await db.execute(sql`
    SELECT EXISTS (SELECT 1 FROM messages WHERE team_id = ${teamId} AND broadcast_id = ${id} AND status = 'QUEUED') AS q`);
  return Boolean(rowsOf<{ q: boolean }>(res)[0]?.q);
}

/**
 * Whether a claimed broadcast message may leave now: still QUEUED under this claim, its broadcast
 * in one of `sending` (a pause or cancel committed since the claim stops it here), and not a
 * MARKETING template to a contact who opted out since the claim (lib/contacts/opt-out-repo.ts; the
 * message is given back, and the next claim, which reads consent too, fails it with its reason).
 */
export async function claimMaySend(
  db: DbOrTx,
  { messageId, attempts, sending }: { messageId: number; attempts: number; sending: readonly BroadcastStatus[] },
): Promise<boolean> {
  // The message is read by its primary key alone, in a CTE of its own: joined directly, a prepared
  // statement's generic plan could read it through messages_broadcast_status_idx (status =
  // 'QUEUED', id only a filter), scanning every queued message of every broadcast for each send;
  // with stale statistics during a 100,000-recipient broadcast the worker fell to 63 sends/s.
  const res = await db.execute(sql`
    WITH m AS MATERIALIZED (SELECT team_id, broadcast_id, status, attempts, type, contact_id, template_id, template_name, template_language
                            FROM messages WHERE id = ${messageId})
    SELECT 1 AS ok FROM m JOIN broadcasts b ON b.team_id = m.team_id AND b.id = m.broadcast_id
    WHERE m.status = 'QUEUED' AND m.attempts = ${attempts} AND b.status IN (${states(sending)})
      AND NOT ${marketingRefusedSql(sql.raw("m"))}`);
  return rowsOf(res).length > 0;
}

/**
 * Gives a stopped claim back, the attempt uncounted: parked (out of the queue until a resume) if
 * its broadcast is not in one of `sending`, else due again. The broadcast row is read under FOR
 * SHARE, so a resume (which locks it FOR UPDATE, then un-parks the messages) either commits first
 * and is seen here, or waits for this and then finds the message parked. Parking blindly lost that
 * race: a resume landing between the check and this park left the message parked (next_attempt_at
 * NULL) under a SENDING broadcast, QUEUED for ever, and the broadcast never DONE.
 */
export async function giveBackClaim(
  db: DbOrTx,
  { messageId, attempts, sending }: { messageId: number; attempts: number; sending: readonly BroadcastStatus[] },
) {
  await db.execute(sql`
    WITH m AS MATERIALIZED (SELECT team_id, broadcast_id FROM messages WHERE id = ${messageId}),
    b AS (
      SELECT b.status, b.scheduled_at FROM m JOIN broadcasts b ON b.team_id = m.team_id AND b.id = m.broadcast_id
      FOR SHARE OF b
    )
    UPDATE messages m SET locked_until = NULL, attempts = m.attempts - 1,
      next_attempt_at = (SELECT CASE WHEN b.status IN (${states(sending)}) THEN greatest(now(), coalesce(b.scheduled_at, now())) END FROM b)
    WHERE m.id = ${messageId} AND m.status = 'QUEUED' AND m.attempts = ${attempts}`);
}
