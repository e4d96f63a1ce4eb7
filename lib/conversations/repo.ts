import "server-only";
import { and, eq, exists, gt, gte, inArray, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { genericPlansOf, type Db, type DbOrTx } from "@/db/client";
import { partitionBounds } from "@/lib/messages/history-repo";
import { ALL_IDS, CachedBounds } from "@/lib/messages/history-bounds";
import { recentIdFloor } from "./recent-floor";
import { placeholder, preparedOnce, type Param } from "@/db/prepared";
import { agents, contactLabels, contacts, conversations, labels, messages, waNumbers } from "@/db/schema";
import type { ConversationStatus } from "@/db/schema/conversations";
import { contactSearchWhere } from "@/lib/contacts/repo";

// The list takes `Db`, not `DbOrTx`: its statements are prepared once per pool handle (db/prepared.ts).

export type ConversationFilter = {
  waNumberId?: number;
  labelIds?: number[];
  needsReply?: boolean;
  unread?: boolean;
  search?: string;
  /** null: unassigned only. */
  assigneeAgentId?: number | null;
  status?: ConversationStatus;
  /**
   * true: only conversations the customer never wrote in (a broadcast or a send opened them);
   * false: only those where they did ("Abiertas" leaves the others out until the customer answers).
   */
  outboundOnly?: boolean;
  /**
   * `newest`: latest activity first. `waiting`: the conversations waiting for our reply (the last
   * message is the customer's), the one whose last message is oldest first.
   */
  order?: ConversationOrder;
  /** The cursor's position (last activity, then id): rows after it in the list's order. */
  before?: { at: string; id: number };
};
export type ConversationOrder = "newest" | "waiting";

/** A label as the list carries it (lib/labels/service.ts toLabelDto makes the DTO). */
export type ListedLabel = { id: number; title: string; description: string | null; bgColor: string; textColor: string };

/**
 * The last message's payload as far as its preview needs it (lib/conversations/preview.ts). A
 * template's payload carries every component, parameter and button, and after a bulk send or a
 * broadcast it is what most rows of a page end in: sent whole, the web process parsed it only to
 * read the body's text (0.5 ms of CPU per page on the bench's set after its bulk sends). So a
 * template keeps its name and its BODY components' type and text; every other type is small and
 * goes as it is. A payload of another shape (stored by an older version, or hostile) becomes
 * what the preview would have read from it: nothing.
 */
const previewPayload = sql<unknown>`CASE WHEN ${messages.type} = 'template' THEN jsonb_build_object(
    'name', CASE WHEN jsonb_typeof(${messages.payload}) = 'object' THEN ${messages.payload} -> 'name' END,
    'components', (SELECT coalesce(jsonb_agg(jsonb_build_object('type', c -> 'type', 'text', c -> 'text')), '[]'::jsonb)
      FROM jsonb_array_elements(CASE WHEN jsonb_typeof(${messages.payload} -> 'components') = 'array'
        THEN ${messages.payload} -> 'components' ELSE '[]'::jsonb END) c
      WHERE jsonb_typeof(c) = 'object' AND upper(c ->> 'type') = 'BODY'))
  ELSE ${messages.payload} END`.mapWith(messages.payload);

/** The last message's columns, as its preview and ticks need them. */
const lastMessageColumns = {
  id: messages.id,
  updateId: messages.updateId,
  type: messages.type,
  direction: messages.direction,
  sender: messages.sender,
  status: messages.status,
  createdAt: messages.createdAt,
  payload: previewPayload,
};

const listColumns = (teamId: Param<number>) => ({
  id: conversations.id,
  waNumber: waNumbers.number,
  contactId: contacts.id,
  contactName: contacts.name,
  customerNumber: contacts.customerNumber,
  customerId: contacts.customerId,
  // Two columns of the contact row the page already reads (no extra lookup).
  marketingOptedOutAt: contacts.marketingOptedOutAt,
  marketingOptOutReason: contacts.marketingOptOutReason,
  lastMessageAt: conversations.lastMessageAt,
  // The cursor's instant to the microsecond (a Date keeps milliseconds: a page read oldest first
  // would start again at its own last row).
  activityCursor: sql<string>`to_char(${conversations.lastMessageAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
  lastInboundAt: conversations.lastInboundAt,
  unreadCount: conversations.unreadCount,
  assigneeAgentId: conversations.assigneeAgentId,
  status: conversations.status,
  // The inbox's clocks (docs/features/inbox.md), kept on the row by its triggers.
  waitingSince: conversations.waitingSince,
  openedAt: conversations.openedAt,
  firstResponseSeconds: conversations.firstResponseSeconds,
  resolvedAt: conversations.resolvedAt,
  message: lastMessageColumns,
  // The contact's labels in the same statement: a page is one round trip, not two. Read from the
  // contact's own assignments (one probe of contact_labels' key, usually finding none), then their
  // labels by key: left to itself the planner started from the team's labels and probed the
  // contact once per label (OFFSET 0 keeps the subquery as written), 12 buffers a row instead of 3.
  labels: sql<ListedLabel[]>`(select coalesce(json_agg(json_build_object('id', l.id, 'title', l.title, 'description', l.description,
    'bgColor', l.bg_color, 'textColor', l.text_color) order by l.id), '[]'::json)
    from (select cl.label_id from ${contactLabels} cl where cl.team_id = ${teamId} and cl.contact_id = ${contacts.id} offset 0) cl
    join ${labels} l on l.team_id = ${teamId} and l.id = cl.label_id)`,
});
// NULLS LAST as the activity indexes are built (drizzle-kit writes DESC NULLS LAST): Postgres's
// default DESC is NULLS FIRST, which no index matches, and the list would join every
// conversation of the team before sorting (38 ms instead of 0.4 ms on the bench's set).
const activityOrder = [sql`${conversations.lastMessageAt} DESC NULLS LAST`, sql`${conversations.id} DESC NULLS LAST`];
// The same indexes read backwards: the waiting order is conversations_needs_reply_idx from its end.
const waitingOrder = [sql`${conversations.lastMessageAt} ASC NULLS FIRST`, sql`${conversations.id} ASC NULLS FIRST`];
const orderOf = (f: ConversationFilter) => (f.order === "waiting" ? waitingOrder : activityOrder);

// A listed row: the list and the single-row read select the same listColumns.
export type ConversationRow = NonNullable<Awaited<ReturnType<typeof findConversationRow>>>;

/**
 * The list's WHERE. Values go in as placeholders (named after the filter's fields) except the
 * label ids and the search text, whose SQL varies with them: a page without those is a statement
 * built once per shape of filter and then only executed (db/prepared.ts).
 */
function filterWhere(f: ConversationFilter): SQL | undefined {
  return and(
    eq(conversations.teamId, placeholder("teamId")),
    f.waNumberId === undefined ? undefined : eq(conversations.waNumberId, placeholder("waNumberId")),
    // Literals, not parameters: a prepared statement's generic plan can use the partial indexes
    // (conversations_needs_reply_idx, conversations_unread_idx) only when it sees their predicates.
    f.needsReply || f.order === "waiting" ? sql`${conversations.lastDirection} = 'INBOUND'` : undefined,
    // Literals too, for the partial indexes of migration 0025.
    f.outboundOnly === undefined
      ? undefined
      : f.outboundOnly
        ? sql`${conversations.lastInboundAt} IS NULL`
        : sql`${conversations.lastInboundAt} IS NOT NULL`,
    f.unread ? sql`${conversations.unreadCount} > 0` : undefined,
    f.status ? eq(conversations.status, placeholder("status")) : undefined,
    f.assigneeAgentId === undefined
      ? undefined
      : f.assigneeAgentId === null
        ? isNull(conversations.assigneeAgentId)
        : eq(conversations.assigneeAgentId, placeholder("assigneeAgentId")),
    f.labelIds?.length
      ? exists(
          sql`(select 1 from ${contactLabels} where ${and(
            eq(contactLabels.teamId, placeholder("teamId")),
            eq(contactLabels.contactId, conversations.contactId),
            inArray(contactLabels.labelId, f.labelIds),
          )})`,
        )
      : undefined,
    // The page is chosen from conversations alone (conversationListQuery), so the contact's name
    // and number are matched in a probe of its row.
    f.search
      ? exists(
          sql`(select 1 from ${contacts} where ${and(
            eq(contacts.teamId, placeholder("teamId")),
            eq(contacts.id, conversations.contactId),
            contactSearchWhere(f.search),
          )})`,
        )
      : undefined,
    // The plain bound (>= or <=) is an index condition, so the next page starts at the cursor
    // instead of walking the index from its start; the OR settles ties on the same instant.
    f.before
      ? f.order === "waiting"
        ? and(
            gte(conversations.lastMessageAt, placeholder("beforeAt")),
            or(
              gt(conversations.lastMessageAt, placeholder("beforeAt")),
              and(eq(conversations.lastMessageAt, placeholder("beforeAt")), gt(conversations.id, placeholder("beforeId"))),
            ),
          )
        : and(
            lte(conversations.lastMessageAt, placeholder("beforeAt")),
            or(
              lt(conversations.lastMessageAt, placeholder("beforeAt")),
              and(eq(conversations.lastMessageAt, placeholder("beforeAt")), lt(conversations.id, placeholder("beforeId"))),
            ),
          )
      : undefined,
  );
}

/**
 * The list's query with placeholders for its values (listStatement prepares it; the plan tests
 * EXPLAIN it). The page's rows are chosen first, in a subquery of `conversations` alone with its
 * LIMIT written as a number, and only those rows are joined to their contact, number, last
 * message and labels. Why: a prepared statement is re-planned on every execution while Postgres
 * reckons its generic plan dearer than a fresh one, and the plan of the whole four-way join cost
 * 0.8 ms a page, twice its execution (bench/log/2026-11-26-report-and-list-time.md). As one join, the generic plan
 * could not know the page is 21 rows (a `LIMIT $n` is reckoned a tenth of the table) nor that the
 * join's six team ids are one, and came out as a scan and sort of the team's every conversation:
 * dearer, so never taken. Split so, its generic plan is the custom one (an index walk stopped
 * after the page, then nested loops over those rows), and Postgres keeps it: one statement per
 * filter shape and page size, each planned about five times per connection, then only executed.
 *
 * The last message is joined only from the recent partitions up (`id >= recentLo`:
 * lib/conversations/recent-floor.ts says why), and listConversationRows completes the rows whose
 * last message lies below. The floor is written into the text as the LIMIT is, not passed as a
 * value: then the planner drops the older partitions when it plans, in the generic plan as in a
 * custom one, so the two cost the same and the generic plan is kept. Passed as a value, a custom
 * plan pruned by it was reckoned much cheaper than the generic one, and under plan_cache_mode auto
 * the statement was planned anew at every page (1.6–2.0 ms of Postgres). Reading every last
 * message in a second statement instead cost the web process 0.3 ms more a page, one more round
 * trip on every page (bench/log/2026-11-29-outbound-only-loss.md).
 */
export function conversationListQuery(
  db: Db,
  { filter: f, limit, recentLo }: { filter: ConversationFilter; limit: number; recentLo: number },
) {
  const teamId = placeholder<number>("teamId");
  const page = db
    .select()
    .from(conversations)
    .where(filterWhere(f))
    .orderBy(...orderOf(f))
    .limit(literalLimit(limit))
    .as("conversations");
  // The page goes by the table's own name, so every column reference of the row's shape
  // (listColumns, shared with findConversationRow) reads the page's columns.
  return db
    .select({ ...listColumns(teamId), lastMessageId: conversations.lastMessageId })
    .from(page)
    .innerJoin(contacts, and(eq(contacts.id, conversations.contactId), eq(contacts.teamId, teamId)))
    .innerJoin(waNumbers, and(eq(waNumbers.id, conversations.waNumberId), eq(waNumbers.teamId, teamId)))
    .leftJoin(
      messages,
      and(eq(messages.id, conversations.lastMessageId), eq(messages.teamId, teamId), gte(messages.id, literalId(recentLo))),
    )
    .orderBy(...orderOf(f));
}

/**
 * The last messages the list's join left out (below its floor), by id. Their least and greatest
 * are values of the statement, so its generic plan drops the partitions outside them when it
 * starts; `id = ANY(…)` alone would not (PostgreSQL prunes by an array only when it is a
 * constant). On the generic-plan twin (db/client.ts genericPlansOf): planned anew for every call,
 * as plan_cache_mode auto did, it cost 0.80–0.86 ms on the 50 M set against 0.35–0.51.
 */
function lastMessagesQuery(db: Db) {
  return db
    .select(lastMessageColumns)
    .from(messages)
    .where(
      and(
        eq(messages.teamId, placeholder("teamId")),
        sql`${messages.id} = ANY(${placeholder("ids")}::int[])`,
        gte(messages.id, placeholder("lo")),
        lte(messages.id, placeholder("hi")),
      ),
    );
}

const preparedLastMessages = preparedOnce((db) => lastMessagesQuery(db).prepare("conversations_last_messages"));

/** The values of lastMessagesQuery for these message ids (at least one). */
function lastMessagesValues(teamId: number, ids: number[]) {
  // As an array literal: one text parameter, read the same by postgres.js and PGlite.
  return { teamId, ids: `{${ids.join(",")}}`, lo: Math.min(...ids), hi: Math.max(...ids) };
}

/**
 * A LIMIT written into the statement's text rather than passed as a parameter, so the planner
 * knows the page's size in a generic plan. Only ever an integer the caller validated
 * (per_page + 1); drizzle's `limit()` takes a number or a placeholder, and renders SQL as given.
 */
function literalLimit(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`list limit must be a positive integer, got ${limit}`);
  return sql.raw(String(limit)) as unknown as number;
}

/** A message id written into the statement's text (the join's floor), checked to be one. */
function literalId(n: number): SQL {
  if (!Number.isInteger(n) || n < ALL_IDS.lo || n > ALL_IDS.hi) throw new Error(`not a message id: ${n}`);
  return sql.raw(String(n));
}

function listStatement(
  db: Db,
  { filter: f, limit, recentLo, name }: { filter: ConversationFilter; limit: number; recentLo: number; name: string },
) {
  return conversationListQuery(db, { filter: f, limit, recentLo }).prepare(name);
}

/** Which filters are present (not their values): the key of a statement built once. */
function shapeOf(f: ConversationFilter): string {
  const assignee = f.assigneeAgentId === undefined ? "" : f.assigneeAgentId === null ? "none" : "agent";
  return [
    f.waNumberId !== undefined && "number",
    f.needsReply && "needs_reply",
    f.unread && "unread",
    f.status && "status",
    f.outboundOnly === undefined ? "" : f.outboundOnly ? "outbound" : "answered",
    f.order === "waiting" && "waiting",
    assignee,
    f.before && "before",
  ]
    .filter(Boolean)
    .join("_");
}

const preparedLists = new Map<string, (db: Db) => ReturnType<typeof listStatement>>();

/** The values of the list's placeholders. */
export function listValues(teamId: number, filter: ConversationFilter) {
  return {
    teamId,
    waNumberId: filter.waNumberId,
    status: filter.status,
    assigneeAgentId: filter.assigneeAgentId ?? undefined,
    // As text: a placeholder's value reaches the driver as it is, without the column's mapping.
    beforeAt: filter.before?.at,
    beforeId: filter.before?.id,
  };
}

/**
 * One page of a team's conversations, newest activity first, with contact, labels and last message.
 * `db` is a database handle (the service passes the read replica's when it routes there), not a
 * transaction: the statement is prepared once per handle.
 */
export async function listConversationRows(
  db: Db,
  { teamId, filter, limit, recentLo }: { teamId: number; filter: ConversationFilter; limit: number; recentLo?: number },
): Promise<ConversationRow[]> {
  recentLo ??= recentIdFloor(await floorBounds.get(() => partitionBounds(db)));
  const rows = await pageRows(db, { teamId, filter, limit, recentLo });
  const below = rows.filter((r) => r.message === null).map((r) => r.lastMessageId);
  const older = below.length ? await preparedLastMessages(genericPlansOf(db)).execute(lastMessagesValues(teamId, below)) : [];
  const byId = new Map(older.map((m) => [m.id, m]));
  // As an inner join would: a conversation whose last message is not there at all (retention
  // dropped its month) is left out.
  return rows.flatMap(({ lastMessageId, message, ...row }) => {
    const last = message ?? byId.get(lastMessageId);
    return last ? [{ ...row, message: last }] : [];
  });
}

/** The partitions' bounds the join's floor is reckoned from, read again each minute. */
const floorBounds = new CachedBounds();
/** The floor the statements of preparedLists were built with: a new one (a month on) drops them. */
let preparedFloor: number | null = null;

function pageRows(
  db: Db,
  { teamId, filter, limit, recentLo }: { teamId: number; filter: ConversationFilter; limit: number; recentLo: number },
) {
  const values = listValues(teamId, filter);
  if (filter.labelIds?.length || filter.search)
    return listStatement(db, { filter, limit, recentLo, name: "conversations_list_adhoc" }).execute(values);
  if (preparedFloor !== recentLo) {
    preparedLists.clear();
    preparedFloor = recentLo;
  }
  const shape = `${shapeOf(filter)}_${limit}`;
  let statement = preparedLists.get(shape);
  if (!statement)
    preparedLists.set(
      shape,
      (statement = preparedOnce((db) => listStatement(db, { filter, limit, recentLo, name: `conversations_list_${shape}` }))),
    );
  return statement(db).execute(values);
}

/** One conversation of the team, as listed (null when it is not the team's). */
export async function findConversationRow(db: DbOrTx, { teamId, id }: { teamId: number; id: number }) {
  const [row] = await db
    .select(listColumns(teamId))
    .from(conversations)
    .innerJoin(contacts, and(eq(contacts.id, conversations.contactId), eq(contacts.teamId, teamId)))
    .innerJoin(waNumbers, and(eq(waNumbers.id, conversations.waNumberId), eq(waNumbers.teamId, teamId)))
    .innerJoin(messages, and(eq(messages.id, conversations.lastMessageId), eq(messages.teamId, teamId)))
    .where(and(eq(conversations.teamId, teamId), eq(conversations.id, id)))
    .limit(1);
  return row ?? null;
}

/** Locks the team's conversation for the rest of the transaction; null if it is not the team's. */
export async function lockConversation(db: DbOrTx, { teamId, id }: { teamId: number; id: number }) {
  const [row] = await db
    .select({
      id: conversations.id,
      waNumberId: conversations.waNumberId,
      contactId: conversations.contactId,
      lastInboundMessageId: conversations.lastInboundMessageId,
      unreadCount: conversations.unreadCount,
    })
    .from(conversations)
    .where(and(eq(conversations.teamId, teamId), eq(conversations.id, id)))
    .for("update");
  return row ?? null;
}

export async function updateConversationRow(
  db: DbOrTx,
  {
    teamId,
    id,
    set,
  }: { teamId: number; id: number; set: Partial<{ unreadCount: number; assigneeAgentId: number | null; status: ConversationStatus }> },
) {
  await db
    .update(conversations)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(conversations.teamId, teamId), eq(conversations.id, id)));
}

/** Whether `agentId` is an active agent of the team (assignees must be; a deactivated one is not). */
export async function teamAgentExists(db: DbOrTx, { teamId, agentId }: { teamId: number; agentId: number }): Promise<boolean> {
  const rows = await db
    .select({ id: agents.id })
    .from(agents)
    .where(and(eq(agents.teamId, teamId), eq(agents.id, agentId), isNull(agents.deactivatedAt)))
    .limit(1);
  return rows.length > 0;
}

/**
 * Unassigns the team's open conversations assigned to `agentId` (a deactivated agent's: resolved
 * ones keep their assignee, who handled them). One UPDATE; returns what it changed.
 */
export async function unassignOpenConversations(db: DbOrTx, { teamId, agentId }: { teamId: number; agentId: number }) {
  return db
    .update(conversations)
    .set({ assigneeAgentId: null, updatedAt: new Date() })
    .where(and(eq(conversations.teamId, teamId), eq(conversations.assigneeAgentId, agentId), eq(conversations.status, "open")))
    .returning({ id: conversations.id, waNumberId: conversations.waNumberId, contactId: conversations.contactId });
}

/**
 * Queues "mark as read" at Meta for the conversation's newest inbound message when its number is
 * a cloud_api one (the delivery worker sends it: lib/delivery/read-receipts.ts). Once per message.
 */
export async function enqueueReadReceipt(db: DbOrTx, { teamId, conversationId }: { teamId: number; conversationId: number }) {
  await db.execute(sql`
    INSERT INTO read_receipts (team_id, wa_number_id, message_id, provider_message_id)
    SELECT m.team_id, m.wa_number_id, m.id, m.provider_message_id
    FROM conversations c
    JOIN wa_numbers w ON w.team_id = c.team_id AND w.id = c.wa_number_id
    JOIN messages m ON m.team_id = c.team_id AND m.id = c.last_inbound_message_id
    WHERE c.team_id = ${teamId} AND c.id = ${conversationId} AND w.provider = 'cloud_api' AND m.provider_message_id IS NOT NULL
    ON CONFLICT (team_id, message_id) DO NOTHING`);
}
