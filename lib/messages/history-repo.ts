import "server-only";
import { and, asc, count, desc, eq, gte, lt, lte, or, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { genericPlansOf, preparesNamed, type Db } from "@/db/client";
import { placeholder, preparedOnce, type Param } from "@/db/prepared";
import { contacts, conversationDays, messagePartitionBounds, messages, waNumbers } from "@/db/schema";
import type { IdRange, PartitionBounds } from "./history-bounds";
import type { HistoryWindow } from "./history-range";

// `Db`, not `DbOrTx`, throughout: the statements are prepared once per pool handle (db/prepared.ts).

/**
 * One conversation (team, company number, contact) within a window in `timeZone`, and the ids
 * that window may hold (`ids`, lib/messages/history-bounds.ts): every query adds them to its
 * conditions so the planner prunes the partitions of messages by id, and checks them.
 */
export type Conversation = {
  teamId: number;
  waNumberId: number;
  contactId: number;
  window: HistoryWindow;
  timeZone: string;
  ids: IdRange;
};

/** A conversation's values, or the placeholders a prepared statement takes them through. */
type ConversationParams = {
  teamId: Param<number>;
  waNumberId: Param<number>;
  contactId: Param<number>;
  window: { from: Param<string>; toExclusive: Param<string> | null };
  timeZone: Param<string>;
  ids: { lo: Param<number>; hi: Param<number> };
  /**
   * When the id bounds prune: "plan" (as constants, when planned: a statement planned at every
   * execution, unnamed) or "start" (through the STABLE messages_history_id, when the executor
   * starts: a named statement, so that PostgreSQL keeps its generic plan rather than plan every
   * page; db/functions/messages_history_ids.sql). Absent: "plan".
   */
  pruneAt?: "plan" | "start";
};

export const HISTORY_BATCH = 500;

/** The columns of a history record (spec 2.4) and its `include=` extras; the inbox's thread pages read the same. */
export const recordColumns = {
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
  routedTo: messages.routedTo,
  providerMessageId: messages.providerMessageId,
};

/** The window's bounds as instants: `from` inclusive; the upper one exclusive, or "until now" inclusive. */
function windowBounds(c: ConversationParams) {
  const from = sql`(${c.window.from}::timestamp AT TIME ZONE ${c.timeZone})`;
  const to = c.window.toExclusive !== null ? sql`(${c.window.toExclusive}::timestamp AT TIME ZONE ${c.timeZone})` : null;
  const below = (bound: SQL | null) => (bound === null ? sql`${messages.createdAt} <= now()` : lt(messages.createdAt, bound));
  return { from, to, below };
}

/** The id range as conditions on the partition key: what prunes (when planned, or when a generic plan starts). */
const inIds = (c: ConversationParams) => {
  const bound = (v: Param<number>) => (c.pruneAt === "start" ? sql`messages_history_id(${v}::int)` : v);
  return and(gte(messages.id, bound(c.ids.lo)), lte(messages.id, bound(c.ids.hi)))!;
};

/** The conversation's keys: team, company number, contact. */
const conversationKeys = (c: ConversationParams) =>
  and(eq(messages.teamId, c.teamId), eq(messages.waNumberId, c.waNumberId), eq(messages.contactId, c.contactId))!;

const sameConversation = (c: ConversationParams) => and(conversationKeys(c), inIds(c))!;

/**
 * The id range for the counts of a window's partial edge days. In a named statement (pruneAt
 * "start", whose generic plan PostgreSQL keeps) it is written `id >= ANY (ARRAY[lo]) AND id <= ANY
 * (ARRAY[hi])`: that prunes the same (PostgreSQL turns a one-element ARRAY back into `id >= lo`,
 * when a generic plan starts too), but the planner no longer reads the two bounds as one range.
 * Without values a range `id >= $lo AND id <= $hi` is rated as selective as the day's
 * `created_at >= $a AND created_at < $b` (0.5 % each), and which index counted the day flipped with
 * the statistics. Counted through messages_history_idx, with only the id range (the whole month
 * partition) as index condition, a partial day read every entry the customer has in that month:
 * 16,000 for the bench's heavy customer, twice a page, 5x its p99 on the 50 M set (bench/log/2026-11-28-50m-third-run.md).
 * Rated as two separate inequalities (a third each) the id bounds lose to the day's range, which
 * reads only that day through messages_history_range_idx (tests/api/history-plan.test.ts). An
 * unnamed statement is planned with its values, which show the day is narrower than the partition:
 * it keeps the plain range (on a table without statistics the loose form let PostgreSQL 17 filter
 * a team's whole partition through messages_team_group_idx).
 */
const edgeDayIds = (c: ConversationParams) => {
  if (c.pruneAt !== "start") return inIds(c);
  const bound = (v: Param<number>) => sql`messages_history_id(${v}::int)`;
  return sql`${messages.id} >= ANY (ARRAY[${bound(c.ids.lo)}]) AND ${messages.id} <= ANY (ARRAY[${bound(c.ids.hi)}])`;
};

/**
 * The statement's own check that its id range covers its window (db/functions/
 * message_partition_bounds.sql, messages_history_ids_cover): an uncorrelated subquery, so it runs
 * once, before any row, in the snapshot the rows come from, and raises MH001 when the bounds have
 * widened past the range since the process read them (lib/messages/history-bounds.ts asks again).
 */
function rangeChecked(c: ConversationParams): SQL {
  const { from, to } = windowBounds(c);
  return sql`(SELECT messages_history_ids_cover(${from}, ${to ?? sql`NULL::timestamptz`}, ${c.ids.lo}::int, ${c.ids.hi}::int))`;
}

/**
 * The predicate every history query shares. Its equality columns lead `messages_history_idx`
 * (team_id, wa_number_id, contact_id, id) INCLUDE (created_at), so the created_at test is
 * answered from the index too: pages and counts are index-only scans (docs/history.md).
 */
function conversationWhere(c: ConversationParams): SQL {
  const { from, to, below } = windowBounds(c);
  return and(sameConversation(c), gte(messages.createdAt, from), below(to))!;
}

/**
 * `total_items` of a window. Whole UTC days inside it are summed from the `conversation_days`
 * rollup; only the partial days at its two edges are counted in `messages` (index-only, through
 * `messages_history_range_idx`). A window that holds no whole day is counted directly. So a
 * 30-day window costs ~30 rollup rows plus two days of index entries, however many messages the
 * customer has (bench/log/2026-11-22-findings.md, finding 2).
 */
function conversationCount(db: Db, c: ConversationParams): SQL<number> {
  const { from, to, below } = windowBounds(c);
  // The first whole day starts at or after `from`; the last one ends at or before the upper bound.
  const firstDay = sql`((${from} AT TIME ZONE 'UTC') + interval '1 day' - interval '1 microsecond')::date`;
  const endDay = sql`(${to ?? sql`now()`} AT TIME ZONE 'UTC')::date`;
  const midnight = (day: SQL) => sql`(${day}::timestamp AT TIME ZONE 'UTC')`;
  const counted = (where: SQL) =>
    sql`(${db
      .select({ n: count() })
      .from(messages)
      .where(and(conversationKeys(c), edgeDayIds(c), where))})`;
  const days = db
    .select({ n: sql`coalesce(sum(${conversationDays.messages}), 0)` })
    .from(conversationDays)
    .where(
      and(
        eq(conversationDays.teamId, c.teamId),
        eq(conversationDays.waNumberId, c.waNumberId),
        eq(conversationDays.contactId, c.contactId),
        gte(conversationDays.day, firstDay),
        lt(conversationDays.day, endDay),
      ),
    );
  return sql<number>`(CASE WHEN ${firstDay} < ${endDay}
    THEN (${days}) + ${counted(and(gte(messages.createdAt, from), lt(messages.createdAt, midnight(firstDay)))!)}
      + ${counted(and(gte(messages.createdAt, midnight(endDay)), below(to))!)}
    ELSE ${counted(and(gte(messages.createdAt, from), below(to))!)} END)::int`.mapWith(Number);
}

/**
 * Rows by "deferred join": the ids are chosen from the index alone (an index-only scan of
 * `messages_history_idx` in id order, skipping OFFSET entries without touching the heap), then
 * only the rows returned are read by primary key. Reading whole rows while skipping would fetch
 * the heap for every skipped message, and the planner then prefers a bitmap scan plus sort.
 *
 * The rows are read one id at a time: a nested loop over the page's ids (a subquery with its
 * LIMIT, so it runs once and keeps its order) into a LATERAL subquery that reads the row of that
 * id. Its LIMIT 1 keeps it from being flattened into a join (a hash or merge join could read a
 * partition's whole range), so it can only be a lookup parameterized by the id, and only the
 * primary key `(id, team_id)` leads with `id`: every other index of messages leads with team_id,
 * so none of them can compete, whatever the statistics. That is why the team is checked outside
 * the lookup (the ids come from the team's own rows anyway): given `team_id = $t` as well, on a
 * small or fresh partition PostgreSQL rated a scan of the team's entries in another index
 * (history, team_group) as cheap as the key. Written as `id = ANY(ARRAY(ids))` beside the id range
 * (an array whose length the planner does not know), on a fresh (unanalysed) partition PostgreSQL
 * scanned its whole history index over the range with `id = ANY` as a filter
 * (tests/api/history-plan.test.ts), and its primary-key plans read the key across the range too. The lookup keeps the id range (`inIds`): with it the
 * partitions are pruned when planned, or when a generic plan starts, rather than every partition
 * being planned and then pruned at each id. The rows come out in the ids' order, so ordering by
 * the page's id sorts nothing.
 */
function rowLookup(db: Db, { conversation: c, ids }: { conversation: ConversationParams; ids: ReturnType<typeof idQuery> }) {
  const page = ids.as("page");
  // The row goes by the table's own name, so recordColumns (and the team check) read the lateral's columns.
  const row = db
    .select({ ...recordColumns, teamId: messages.teamId })
    .from(messages)
    .where(and(eq(messages.id, page.id), inIds(c)))
    .limit(1)
    .as("messages");
  return { page, row, sameTeam: eq(messages.teamId, c.teamId) };
}
const byId = (id: SQLWrapper, order: "ASC" | "DESC") => (order === "ASC" ? asc(id) : desc(id));

function idQuery(
  db: Db,
  { where, order, limit, offset = 0 }: { where: SQL; order: "ASC" | "DESC"; limit: Param<number>; offset?: Param<number> },
) {
  return db.select({ id: messages.id }).from(messages).where(where).orderBy(byId(messages.id, order)).limit(limit).offset(offset);
}

export function countQuery(db: Db, c: ConversationParams) {
  return db
    .select({ total: conversationCount(db, c) })
    .from(sql`(SELECT 1) AS one`)
    .where(rangeChecked(c));
}

/**
 * One page and the conversation's total in one statement: the count is an uncorrelated scalar
 * subquery (an InitPlan, run once) beside the page's rows, so a paginated answer is one round
 * trip instead of two. A page past the end has no row to carry the total: the caller counts
 * separately then. Exposed so tests can EXPLAIN exactly what is sent.
 */
export function pageQuery(
  db: Db,
  {
    conversation: c,
    order,
    limit,
    offset,
  }: { conversation: ConversationParams; order: "ASC" | "DESC"; limit: Param<number>; offset: Param<number> },
) {
  const where = conversationWhere(c);
  const total = conversationCount(db, c);
  const { page, row, sameTeam } = rowLookup(db, { conversation: c, ids: idQuery(db, { where, order, limit, offset }) });
  return db
    .select({ ...recordColumns, total })
    .from(page)
    .innerJoinLateral(row, sql`true`)
    .where(and(sameTeam, rangeChecked(c)))
    .orderBy(byId(page.id, order));
}

// The page is the hot path of the history: its four shapes (order × bounded or open window) are
// built once and run as prepared statements with every value a placeholder.
const pagePlaceholders: ConversationParams = {
  teamId: placeholder("teamId"),
  waNumberId: placeholder("waNumberId"),
  contactId: placeholder("contactId"),
  window: { from: placeholder("from"), toExclusive: placeholder("to") },
  timeZone: placeholder("tz"),
  ids: { lo: placeholder("lo"), hi: placeholder("hi") },
};
const placeholdersFor = (bounded: boolean): ConversationParams => ({
  ...pagePlaceholders,
  window: { ...pagePlaceholders.window, toExclusive: bounded ? placeholder("to") : null },
});

/**
 * The page statement with every value a placeholder (teamId, waNumberId, contactId, from, to, tz,
 * lo, hi, limit, offset), as the app prepares it; the bench's floor server sends the very same text.
 */
export function pageStatement(
  db: Db,
  { order, bounded, pruneAt = "plan" }: { order: "ASC" | "DESC"; bounded: boolean; pruneAt?: "plan" | "start" },
) {
  return pageQuery(db, {
    conversation: { ...placeholdersFor(bounded), pruneAt },
    order,
    limit: placeholder("limit"),
    offset: placeholder("offset"),
  });
}

/** The count alone, for a page past the end (same placeholders as `pageStatement`). */
export function countStatement(db: Db, { bounded, pruneAt = "plan" }: { bounded: boolean; pruneAt?: "plan" | "start" }) {
  return countQuery(db, { ...placeholdersFor(bounded), pruneAt });
}

/** How `db`'s statements write the id bounds (see ConversationParams.pruneAt). */
const pruneAtOn = (db: Db) => (preparesNamed(db) ? "start" : "plan");

const preparedPages = Object.fromEntries(
  (["ASC", "DESC"] as const).flatMap((order) =>
    [true, false].map((bounded) => [
      `${order}:${bounded}`,
      preparedOnce((db) =>
        pageStatement(db, { order, bounded, pruneAt: pruneAtOn(db) }).prepare(
          `history_page_${order.toLowerCase()}_${bounded ? "bounded" : "open"}`,
        ),
      ),
    ]),
  ),
);

/**
 * Keyset batch for the streamed (unpaginated) answer: the next `HISTORY_BATCH` rows after
 * `afterId`. The bound is written as a row comparison over the index's columns so that it is an
 * index condition of `messages_history_idx` and never tempts the planner into walking the
 * primary key from `afterId` across every other conversation.
 */
export function batchQuery(
  db: Db,
  {
    conversation: c,
    order,
    afterId,
  }: { conversation: Conversation & Pick<ConversationParams, "pruneAt">; order: "ASC" | "DESC"; afterId: number | null },
) {
  const where = conversationWhere(c);
  const key = sql`(${messages.teamId}, ${messages.waNumberId}, ${messages.contactId}, ${messages.id})`;
  const bound = sql`(${c.teamId}::int, ${c.waNumberId}::int, ${c.contactId}::int, ${afterId}::int)`;
  const keyset = afterId === null ? where : and(where, order === "ASC" ? sql`${key} > ${bound}` : sql`${key} < ${bound}`)!;
  const { page, row, sameTeam } = rowLookup(db, { conversation: c, ids: idQuery(db, { where: keyset, order, limit: HISTORY_BATCH }) });
  return db
    .select(recordColumns)
    .from(page)
    .innerJoinLateral(row, sql`true`)
    .where(and(sameTeam, rangeChecked(c)))
    .orderBy(byId(page.id, order));
}

export async function historyPage(
  db: Db,
  { conversation: c, order, limit, offset }: { conversation: Conversation; order: "ASC" | "DESC"; limit: number; offset: number },
) {
  // Kept to their generic plans on a direct connection (db/client.ts genericPlansOf says why).
  const generic = genericPlansOf(db);
  const page = preparedPages[`${order}:${c.window.toExclusive !== null}`](generic);
  const rows = await page.execute({
    teamId: c.teamId,
    waNumberId: c.waNumberId,
    contactId: c.contactId,
    from: c.window.from,
    to: c.window.toExclusive,
    tz: c.timeZone,
    lo: c.ids.lo,
    hi: c.ids.hi,
    limit,
    offset,
  });
  if (rows.length) return { rows, total: rows[0].total };
  // Sent as a named statement too (db/client.ts, namedStatements): pruned when it starts, like the page.
  const [{ total }] = await countQuery(generic, { ...c, pruneAt: pruneAtOn(generic) });
  return { rows, total };
}

export async function historyBatch(
  db: Db,
  { conversation: c, order, afterId }: { conversation: Conversation; order: "ASC" | "DESC"; afterId: number | null },
) {
  const generic = genericPlansOf(db);
  return batchQuery(generic, { conversation: { ...c, pruneAt: pruneAtOn(generic) }, order, afterId });
}

/** The partitions' id ranges and created_at bounds, for lib/messages/history-bounds.ts to cache. */
export async function partitionBounds(db: Db): Promise<PartitionBounds[]> {
  return preparedBounds(db).execute();
}

/** The bounds statement (no placeholder), also read by the bench's floor server. */
export function boundsStatement(db: Db) {
  return db
    .select({
      lo: messagePartitionBounds.lo,
      hi: messagePartitionBounds.hi,
      minCreatedAt: messagePartitionBounds.minCreatedAt,
      maxCreatedAt: messagePartitionBounds.maxCreatedAt,
    })
    .from(messagePartitionBounds);
}

const preparedBounds = preparedOnce((db) => boundsStatement(db).prepare("history_partition_bounds"));

/**
 * The company number and the contact of a history request in one round trip (ruling 7): the
 * contact is the team's one whose sanitized number is `digits`, else whose customer_id is
 * `customerId`; a number match wins when both match different contacts, since numbers are what
 * callers mostly send. Undefined when the number is not the team's; `contactId` null when no
 * contact matches.
 */
export async function findConversation(
  db: Db,
  { teamId, number, digits, customerId }: { teamId: number; number: string; digits: string | null; customerId: string },
) {
  const [row] = await preparedConversation(db).execute({ teamId, number, digits, customerId });
  return row;
}

/** The number and contact lookup with placeholders (teamId, number, digits, customerId). */
export function conversationStatement(db: Db) {
  const byNumber = sql`(${contacts.customerNumber} = ${placeholder("digits")})`;
  const contact = db
    .select({ id: contacts.id })
    .from(contacts)
    .where(
      and(
        eq(contacts.teamId, placeholder("teamId")),
        or(eq(contacts.customerNumber, placeholder("digits")), eq(contacts.customerId, placeholder("customerId"))),
      ),
    )
    .orderBy(sql`${byNumber} IS TRUE DESC`)
    .limit(1);
  return db
    .select({ waNumberId: waNumbers.id, contactId: sql<number | null>`${contact}`.mapWith(Number) })
    .from(waNumbers)
    .where(and(eq(waNumbers.teamId, placeholder("teamId")), eq(waNumbers.number, placeholder("number"))))
    .limit(1);
}

const preparedConversation = preparedOnce((db) => conversationStatement(db).prepare("history_conversation"));
