import { and, asc, count, desc, eq, gte, lt, or, sql, type SQL } from "drizzle-orm";
import { getDb, type Db } from "@/db/client";
import { contacts, messages } from "@/db/schema";
import type { HistoryWindow } from "./history-range";

/** One conversation (team, company number, contact) within a window in `timeZone`. */
export type Conversation = { teamId: number; waNumberId: number; contactId: number; window: HistoryWindow; timeZone: string };

export const HISTORY_BATCH = 500;

const recordColumns = {
  id: messages.id,
  customerNumber: messages.customerNumber,
  customerId: messages.customerId,
  sender: messages.sender,
  direction: messages.direction,
  type: messages.type,
  status: messages.status,
  createdAt: messages.createdAt,
  payload: messages.payload,
  agentId: messages.agentId,
  agentName: messages.agentName,
  updateId: messages.updateId,
  error: messages.error,
};

/**
 * The predicate every history query shares. Its equality columns lead `messages_history_idx`
 * (team_id, wa_number_id, contact_id, id) INCLUDE (created_at), so the created_at test is
 * answered from the index too: pages and counts are index-only scans (docs/history.md).
 */
function conversationWhere(c: Conversation): SQL {
  const upper = c.window.toExclusive
    ? lt(messages.createdAt, sql`(${c.window.toExclusive}::timestamp AT TIME ZONE ${c.timeZone})`)
    : sql`${messages.createdAt} <= now()`;
  return and(
    eq(messages.teamId, c.teamId),
    eq(messages.waNumberId, c.waNumberId),
    eq(messages.contactId, c.contactId),
    gte(messages.createdAt, sql`(${c.window.from}::timestamp AT TIME ZONE ${c.timeZone})`),
    upper,
  )!;
}

/**
 * Rows by "deferred join": the ids are chosen from the index alone (an index-only scan of
 * `messages_history_idx` in id order, skipping OFFSET entries without touching the heap), then
 * only the rows returned are read by primary key. Reading whole rows while skipping would fetch
 * the heap for every skipped message, and the planner then prefers a bitmap scan plus sort.
 */
function rowsByIds(db: Db, ids: ReturnType<typeof idQuery>, order: "ASC" | "DESC") {
  return db
    .select(recordColumns)
    .from(messages)
    // ARRAY(subquery) is evaluated once, so the outer read is a primary-key lookup. The ids come
    // from the team-filtered subquery; repeating team_id here would only offer the planner
    // other indexes to scan.
    .where(sql`${messages.id} = ANY(ARRAY${ids})`)
    .orderBy(order === "ASC" ? asc(messages.id) : desc(messages.id));
}

function idQuery(db: Db, where: SQL, order: "ASC" | "DESC", limit: number, offset = 0) {
  const q = db
    .select({ id: messages.id })
    .from(messages)
    .where(where)
    .orderBy(order === "ASC" ? asc(messages.id) : desc(messages.id))
    .limit(limit);
  return offset > 0 ? q.offset(offset) : q;
}

/** The page query, exposed so tests can EXPLAIN exactly what is sent. */
export function pageQuery(db: Db, c: Conversation, order: "ASC" | "DESC", limit: number, offset: number) {
  return rowsByIds(db, idQuery(db, conversationWhere(c), order, limit, offset), order);
}

export function countQuery(db: Db, c: Conversation) {
  return db.select({ total: count() }).from(messages).where(conversationWhere(c));
}

/**
 * Keyset batch for the streamed (unpaginated) answer: the next `HISTORY_BATCH` rows after
 * `afterId`. The bound is written as a row comparison over the index's columns so that it is an
 * index condition of `messages_history_idx` and never tempts the planner into walking the
 * primary key from `afterId` across every other conversation.
 */
export function batchQuery(db: Db, c: Conversation, order: "ASC" | "DESC", afterId: number | null) {
  const where = conversationWhere(c);
  const key = sql`(${messages.teamId}, ${messages.waNumberId}, ${messages.contactId}, ${messages.id})`;
  const bound = sql`(${c.teamId}::int, ${c.waNumberId}::int, ${c.contactId}::int, ${afterId}::int)`;
  const keyset = afterId === null ? where : and(where, order === "ASC" ? sql`${key} > ${bound}` : sql`${key} < ${bound}`)!;
  return rowsByIds(db, idQuery(db, keyset, order, HISTORY_BATCH), order);
}

export async function historyPage(c: Conversation, order: "ASC" | "DESC", limit: number, offset: number) {
  const db = await getDb();
  const [rows, [{ total }]] = await Promise.all([pageQuery(db, c, order, limit, offset), countQuery(db, c)]);
  return { rows, total };
}

export async function historyBatch(c: Conversation, order: "ASC" | "DESC", afterId: number | null) {
  return batchQuery(await getDb(), c, order, afterId);
}

/**
 * The team's contact for a customer_source (ruling 7): its sanitized number, else its customer_id.
 * A number match wins when both match different contacts, since numbers are what callers mostly send.
 */
export async function findContactBySource(teamId: number, digits: string | null, customerId: string) {
  const db = await getDb();
  const bySource = digits
    ? or(eq(contacts.customerNumber, digits), eq(contacts.customerId, customerId))
    : eq(contacts.customerId, customerId);
  const rows = await db
    .select({ id: contacts.id, customerNumber: contacts.customerNumber })
    .from(contacts)
    .where(and(eq(contacts.teamId, teamId), bySource))
    .limit(2);
  return rows.find((r) => digits !== null && r.customerNumber === digits) ?? rows[0];
}
