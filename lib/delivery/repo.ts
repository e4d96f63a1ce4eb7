import "server-only";
import { DEMO_WAMID_PREFIX } from "@/lib/seed/demo-ids";
import { and, eq, inArray, sql } from "drizzle-orm";
import { rowsOf, type DbOrTx } from "@/db/client";
import { media, messageStatusHistory, messages, templates, waNumbers, type MessageStatus, type ProviderError } from "@/db/schema";
import { marketingRefusedSql } from "@/lib/contacts/opt-out-repo";
import { inTeams } from "./claim-due-repo";

export type MessageRow = typeof messages.$inferSelect;
/**
 * `leaseEnd`: the worker's own (earlier or equal) reckoning of when the claim's lease runs out.
 * `marketingRefused`: the claim found a MARKETING template to a contact opted out of marketing
 * (lib/contacts/opt-out-repo.ts marketingRefusedSql): the message must not be sent.
 */
export type Claim = { id: number; attempts: number; leaseEnd?: number; marketingRefused?: boolean };

/**
 * Claims due QUEUED messages with a lease. `attempts` is bumped by every claim and doubles as the
 * fencing token: a worker may only move a message it claimed while `attempts` still equals its
 * claim, so a worker whose lease ran out and was re-claimed elsewhere can no longer touch it.
 * Per number, a claim takes at most about `aheadSec` seconds of sends (messages_per_second ×
 * aheadSec, minus slots already reserved ahead), so one slow number's backlog cannot fill a
 * worker while other numbers wait; saturated numbers are skipped in the scan itself.
 *
 * A message whose lease expired (rather than being released or settled, which clear it) is one
 * whose send may have reached the provider: the claim is committed before the send, and only the
 * accepted answer's commit records it. Such a message is claimed again only `uncertainGraceMs`
 * after its lease ran out, time for a status webhook carrying its update_id to adopt the wamid
 * (status.ts) instead of sending it a second time. And a message that a parked status names (by
 * its update_id as callback data) is never claimed again: that status proves the send reached
 * the provider; the parked-status applier adopts its wamid once the lease is over.
 * `takeUncertain` false leaves every expired lease alone: a worker that has just started waits the
 * grace itself first (worker.ts), since the webhooks that would adopt them could not reach a
 * deployment that was down, and are only now being retried.
 *
 * Consent is read in the same statement, for the claimed rows only (`marketing_refused`): whether
 * the message is a MARKETING template to a contact who opted out since it was queued (a scheduled
 * or paused broadcast, a send waiting its turn). The worker fails such a message instead of
 * sending it (send-task.ts prepare), at no extra round trip.
 */
export async function claimMessages(
  db: DbOrTx,
  {
    limit,
    leaseMs,
    aheadSec,
    teamIds,
    uncertainGraceMs = 0,
    takeUncertain = true,
  }: { limit: number; leaseMs: number; aheadSec: number; teamIds?: number[]; uncertainGraceMs?: number; takeUncertain?: boolean },
): Promise<Claim[]> {
  const teams = inTeams(sql`m.team_id`, teamIds);
  const res = await db.execute(sql`
    WITH cand AS (
      SELECT m.id, m.wa_number_id, m.next_attempt_at
      FROM messages m
      WHERE m.status = 'QUEUED' AND m.next_attempt_at <= now()
        AND (m.locked_until IS NULL
             OR (${takeUncertain} AND m.locked_until < now() - ${Math.round(uncertainGraceMs)} * interval '1 millisecond')) ${teams}
        AND (m.attempts = 0 OR NOT EXISTS (SELECT 1 FROM parked_statuses p
                                           WHERE p.wa_number_id = m.wa_number_id AND p.callback_data = m.update_id::text))
        AND NOT EXISTS (SELECT 1 FROM wa_numbers w WHERE w.id = m.wa_number_id
                        AND w.next_send_at > now() + ${aheadSec} * interval '1 second')
      ORDER BY m.next_attempt_at
      LIMIT ${limit * 4}
      FOR UPDATE OF m SKIP LOCKED
    ), ranked AS (
      SELECT c.id, c.next_attempt_at,
        row_number() OVER (PARTITION BY c.wa_number_id ORDER BY c.next_attempt_at, c.id) AS rn,
        greatest(w.messages_per_second, 1) AS mps,
        greatest(0, extract(epoch FROM (coalesce(w.next_send_at, now()) - now()))) AS ahead
      FROM cand c JOIN wa_numbers w ON w.id = c.wa_number_id
    ), picked AS (
      SELECT id FROM ranked WHERE rn + ahead * mps <= greatest(mps * ${aheadSec}, 1)
      ORDER BY next_attempt_at, id LIMIT ${limit}
    )
    UPDATE messages m
    SET locked_until = now() + ${leaseMs} * interval '1 millisecond', attempts = m.attempts + 1
    FROM picked p WHERE m.id = p.id
    RETURNING m.id, m.attempts, ${marketingRefusedSql(sql.raw("m"))} AS marketing_refused`);
  return rowsOf<{ id: number; attempts: number; marketing_refused: boolean }>(res).map((r) => ({
    id: Number(r.id),
    attempts: Number(r.attempts),
    marketingRefused: r.marketing_refused === true,
  }));
}

export async function loadMessages(db: DbOrTx, ids: number[]): Promise<MessageRow[]> {
  if (!ids.length) return [];
  return db.select().from(messages).where(inArray(messages.id, ids));
}

const owned = (c: Claim) => and(eq(messages.id, c.id), eq(messages.status, "QUEUED"), eq(messages.attempts, c.attempts));

export async function markFailed(db: DbOrTx, { claim: c, teamId, error }: { claim: Claim; teamId: number; error: ProviderError }) {
  const rows = await db
    .update(messages)
    .set({ status: "FAILED", lockedUntil: null, error, statusUpdatedAt: sql`now()` })
    .where(owned(c))
    .returning();
  if (rows[0])
    await db.insert(messageStatusHistory).values({ teamId, messageId: c.id, status: "FAILED", raw: { error, attempts: c.attempts } });
  return rows[0];
}

/**
 * Back to the queue for a later attempt, each after its own delay, keeping the last error visible
 * meanwhile: one statement for many, each row fenced by its own claim. Returns the ids moved.
 */
export async function rescheduleMany(db: DbOrTx, items: { c: Claim; delayMs: number; error: ProviderError | null }[]): Promise<number[]> {
  if (!items.length) return [];
  const rows = JSON.stringify(
    items.map(({ c, delayMs, error }) => ({ id: c.id, attempts: c.attempts, delay_ms: Math.round(delayMs), error })),
  );
  const res = await db.execute(sql`
    UPDATE messages m SET next_attempt_at = now() + v.delay_ms * interval '1 millisecond', locked_until = NULL, error = v.error
    FROM jsonb_to_recordset(${rows}::jsonb) AS v(id bigint, attempts int, delay_ms float8, error jsonb)
    WHERE m.id = v.id AND m.status = 'QUEUED' AND m.attempts = v.attempts
    RETURNING m.id`);
  return rowsOf<{ id: number | string }>(res).map((r) => Number(r.id));
}

/** Gives claims back untouched (graceful stop before the send): the attempt does not count. Returns the ids moved. */
export async function releaseMany(db: DbOrTx, claims: Claim[]): Promise<number[]> {
  if (!claims.length) return [];
  const rows = JSON.stringify(claims.map((c) => ({ id: c.id, attempts: c.attempts })));
  const res = await db.execute(sql`
    UPDATE messages m SET locked_until = NULL, attempts = m.attempts - 1
    FROM jsonb_to_recordset(${rows}::jsonb) AS v(id bigint, attempts int)
    WHERE m.id = v.id AND m.status = 'QUEUED' AND m.attempts = v.attempts
    RETURNING m.id`);
  return rowsOf<{ id: number | string }>(res).map((r) => Number(r.id));
}

/**
 * Reserves `n` consecutive send slots of one number in one atomic UPDATE of
 * wa_numbers.next_send_at, so every worker process shares one schedule per number: slot i is
 * `startAt + i·stepMs`, slots (1 + headroom)/mps apart. The start comes back as an absolute time
 * (epoch ms): measuring the wait from when the answer arrives would add the database round trip
 * to some sends and not others. Workers' clocks must agree with the database's to well within
 * the headroom (NTP gives milliseconds). An idle schedule restarts `leadMs` from now, so the
 * answer can arrive before its first slot has passed. clock_timestamp(), not now(): now() is when
 * the statement began, which may be long before it got the row lock behind other reservations.
 *
 * Committed with synchronous_commit off (set_config(…, true) is local to this statement's own
 * transaction), so the row lock every worker of this number queues on is released as soon as the
 * UPDATE is done instead of after a WAL flush. Losing the reservation in a database crash is
 * harmless: it only lets a later reservation start from an earlier time, and a crash plus
 * recovery takes longer than the at most ~claimAheadSec of slots reserved ahead, so `greatest(…,
 * now())` starts past any slot that was actually used. The lease, which fencing depends on, is
 * extended separately with a durable commit (leaseSlots).
 */
export async function reserveSlots(
  db: DbOrTx,
  { waNumberId, count: n, headroom, leadMs = 0 }: { waNumberId: number; count: number; headroom: number; leadMs?: number },
): Promise<{ startAt: number; stepMs: number }> {
  const step = sql`(${1 + headroom}::float8 / greatest(messages_per_second, 1))`;
  const res = await db.execute(sql`
    WITH async AS (SELECT set_config('synchronous_commit', 'off', true) AS v), slot AS (
      UPDATE wa_numbers
      SET next_send_at = greatest(coalesce(next_send_at, clock_timestamp()), clock_timestamp() + ${leadMs} * interval '1 millisecond') + ${n} * ${step} * interval '1 second'
      WHERE id = ${waNumberId}
      RETURNING next_send_at - ${n} * ${step} * interval '1 second' AS at, ${step} * 1000 AS step_ms
    )
    SELECT (extract(epoch FROM at) * 1000)::float8 AS start_ms, step_ms::float8 AS step_ms, (SELECT v FROM async) AS async FROM slot`);
  const row = rowsOf<{ start_ms: number | string; step_ms: number | string }>(res)[0];
  return row ? { startAt: Number(row.start_ms), stepMs: Number(row.step_ms) } : { startAt: Date.now(), stepMs: 0 };
}

/**
 * Stretches each claim's lease over its slot (slot + `holdMs`) and says which claims are still
 * this worker's (`attempts` unchanged): only those may be sent. One statement for a whole group,
 * durably committed: a lease lost in a crash could let another worker claim a message this one
 * is about to send. A claim missing from the answer was lost (its slot simply goes unused).
 */
export async function leaseSlots(
  db: DbOrTx,
  { items, holdMs }: { items: { c: Claim; slotAt: number }[]; holdMs: number },
): Promise<Set<number>> {
  if (!items.length) return new Set();
  const rows = JSON.stringify(items.map(({ c, slotAt }) => ({ id: c.id, attempts: c.attempts, until_ms: slotAt + holdMs })));
  const res = await db.execute(sql`
    UPDATE messages m SET locked_until = to_timestamp(v.until_ms / 1000.0)
    FROM jsonb_to_recordset(${rows}::jsonb) AS v(id bigint, attempts int, until_ms float8)
    WHERE m.id = v.id AND m.status = 'QUEUED' AND m.attempts = v.attempts
    RETURNING m.id`);
  return new Set(rowsOf<{ id: number | string }>(res).map((r) => Number(r.id)));
}

export type Sended = { c: Claim; teamId: number; providerMessageId: string };

/**
 * The guarded QUEUED → SENDED transition of many sends at once, with their events: one UPDATE
 * (each row still fenced by its own claim's `attempts`) and one INSERT instead of two statements
 * and a transaction per message. Returns the rows that moved.
 */
export async function markSendedMany(db: DbOrTx, items: Sended[]): Promise<MessageRow[]> {
  if (!items.length) return [];
  const byId = JSON.stringify(Object.fromEntries(items.map((i) => [i.c.id, { a: i.c.attempts, p: i.providerMessageId }])));
  const entry = sql`(${byId}::jsonb -> (${messages.id})::text)`;
  const rows = await db
    .update(messages)
    .set({
      status: "SENDED",
      providerMessageId: sql`${entry} ->> 'p'`,
      lockedUntil: null,
      error: null,
      statusUpdatedAt: sql`now()`,
      // A template counts against its number's messaging limit from now (a broadcast's was stamped
      // by the delivery gate already: lib/broadcasts/messaging-limit.ts).
      limitCountedAt: sql`CASE WHEN ${messages.type} = 'template' THEN coalesce(${messages.limitCountedAt}, now()) END`,
    })
    .where(
      and(
        inArray(
          messages.id,
          items.map((i) => i.c.id),
        ),
        eq(messages.status, "QUEUED"),
        sql`${messages.attempts} = (${entry} ->> 'a')::int`,
      ),
    )
    .returning();
  if (rows.length) {
    await db.insert(messageStatusHistory).values(
      rows.map((r) => ({
        teamId: r.teamId,
        messageId: r.id,
        status: "SENDED" as const,
        raw: { provider_message_id: r.providerMessageId },
      })),
    );
  }
  return rows;
}

export type StoppedWalk = { id: number; waNumberId: number; status: MessageStatus; providerMessageId: string };

/**
 * Accepted sends of in-process channels (the sandbox) whose status walk stopped: no step for
 * `staleMs` (a restart, a crash), not yet READED. Each is leased to this worker for `leaseMs`
 * (locked_until, otherwise unused past QUEUED; the walk's next step clears it), so two workers
 * never resume the same walk.
 */
export async function claimStoppedWalks(
  db: DbOrTx,
  {
    providers,
    limit,
    staleMs,
    leaseMs,
    teamIds,
  }: { providers: string[]; limit: number; staleMs: number; leaseMs: number; teamIds?: number[] },
): Promise<StoppedWalk[]> {
  if (!providers.length) return [];
  const teams = inTeams(sql`m.team_id`, teamIds);
  const res = await db.execute(sql`
    WITH stopped AS (
      SELECT m.id FROM messages m
      WHERE m.wa_number_id IN (SELECT w.id FROM wa_numbers w WHERE w.provider IN (${sql.join(
        providers.map((p) => sql`${p}`),
        sql`, `,
      )}))
        AND m.direction = 'OUTBOUND' AND m.status IN ('SENDED', 'SENT', 'DELIVERED') AND m.provider_message_id IS NOT NULL
        -- The demo conversation's seeded rows (lib/seed/demo-conversation.ts) were never sent: they
        -- show one example of each status, which a takeover would walk on to READED.
        AND m.provider_message_id NOT LIKE ${`${DEMO_WAMID_PREFIX}%`}
        AND m.status_updated_at < now() - ${Math.round(staleMs)} * interval '1 millisecond'
        AND (m.locked_until IS NULL OR m.locked_until < now()) ${teams}
      LIMIT ${limit}
      FOR UPDATE OF m SKIP LOCKED
    )
    UPDATE messages m SET locked_until = now() + ${Math.round(leaseMs)} * interval '1 millisecond'
    FROM stopped s WHERE m.id = s.id
    RETURNING m.id, m.wa_number_id, m.status, m.provider_message_id`);
  return rowsOf<{ id: number; wa_number_id: number; status: MessageStatus; provider_message_id: string }>(res).map((r) => ({
    id: Number(r.id),
    waNumberId: Number(r.wa_number_id),
    status: r.status,
    providerMessageId: r.provider_message_id,
  }));
}

export async function findNumbersByIds(db: DbOrTx, ids: number[]) {
  if (!ids.length) return [];
  return db.select().from(waNumbers).where(inArray(waNumbers.id, ids));
}

export async function findTemplateForMessage(db: DbOrTx, m: MessageRow) {
  const where = m.templateId
    ? and(eq(templates.teamId, m.teamId), eq(templates.id, m.templateId))
    : and(eq(templates.teamId, m.teamId), eq(templates.name, m.templateName ?? ""), eq(templates.language, m.templateLanguage ?? ""));
  const [row] = await db.select().from(templates).where(where).limit(1);
  return row;
}

export async function findMediaByPath(db: DbOrTx, { teamId, path }: { teamId: number; path: string }) {
  const [row] = await db
    .select()
    .from(media)
    .where(and(eq(media.teamId, teamId), eq(media.path, path)))
    .limit(1);
  return row;
}

/** The provider's id (wamid) of a message of the team, for the `context` of a reply. */
export async function findProviderMessageId(db: DbOrTx, { teamId, messageId }: { teamId: number; messageId: number }) {
  const [row] = await db
    .select({ wamid: messages.providerMessageId })
    .from(messages)
    .where(and(eq(messages.id, messageId), eq(messages.teamId, teamId)))
    .limit(1);
  return row?.wamid ?? null;
}
