import "server-only";
import { getTableColumns, SQL, sql } from "drizzle-orm";
import { rowsOf, type DbOrTx } from "@/db/client";
import { preparedSql } from "@/db/prepared";
import { messages } from "@/db/schema";

/** A message due at once: the database's now() when the row is written. */
export const DUE_NOW: SQL = sql`now()`;

/** An outbound message's row as lib/messages/queued-row.ts builds it (its due time may be SQL: `now()`). */
export type OutboundRow = Omit<typeof messages.$inferInsert, "nextAttemptAt"> & { nextAttemptAt: SQL | Date };

/*
 * The statements ship their rows as ONE jsonb parameter expanded by Postgres
 * (jsonb_to_recordset): a VALUES list of 1,000 rows × 25 columns costs the driver and the planner
 * 25,000 bind parameters, about 4× the time of the whole JSON route (measured on Postgres 15:
 * 1,000 messages in ~800 ms with VALUES).
 */

/** The columns of outbound rows as one jsonb recordset `r`: names, what to select, the records and their types. */
function recordsetOf(rows: Record<string, unknown>[]) {
  const columns = getTableColumns(messages) as Record<string, { name: string; getSQLType(): string }>;
  const first = rows[0];
  const keys = Object.keys(first).filter((k) => !(first[k] instanceof SQL));
  const sqlKeys = Object.keys(first).filter((k) => first[k] instanceof SQL);
  /** One row as a record of the recordset: its non-SQL values under their column names. */
  const record = (r: Record<string, unknown>) => {
    const out: Record<string, unknown> = {};
    for (const k of keys) out[columns[k].name] = r[k] ?? null;
    return out;
  };
  return {
    record,
    names: [...keys, ...sqlKeys].map((k) => sql.identifier(columns[k].name)),
    selects: [...keys.map((k) => sql`r.${sql.identifier(columns[k].name)}`), ...sqlKeys.map((k) => first[k] as SQL)],
    records: rows.map(record),
    definition: sql.raw(keys.map((k) => `"${columns[k].name}" ${columns[k].getSQLType()}`).join(", ")),
  };
}

/** A claim of an Idempotency-Key written with the message (lib/idempotency/service.ts), and its live stored answer. */
export type SendClaim = { key: string; requestHash: string; statusCode: number; response: unknown; ttlHours: number };
export type ContactSendOutcome = {
  /** Whether the message row was written (and the key, if any, claimed with it). */
  inserted: boolean;
  /** The recipient is a contact opted out of marketing (only asked when `refuseOptedOut`): nothing was written. */
  optedOut: boolean;
  /** The key's live answer stored by an earlier request: nothing was written. */
  stored?: { requestHash: string; statusCode: number | null; response: unknown };
};

/**
 * A single send's whole write in one statement (one round trip, its own transaction): the
 * recipient's contact by number (inserted when new, as upsertContacts does), the QUEUED row
 * linked to it (its contact id and customer fields taken from the contact) and, with `claim`, the
 * Idempotency-Key (insertKeyIfAbsent's rule: a live key is kept, an expired one taken over).
 * With `refuseOptedOut` (a MARKETING template), a recipient opted out of marketing gets nothing
 * written, not even the key; a live key already stored writes nothing either (its answer is
 * returned). The key is claimed only from the contact row the message is written from, and the
 * message only with the claim, so a claim never commits without its message.
 *
 * `inserted` false with neither `optedOut` nor `stored`: the contact or the key was committed by
 * a concurrent request after this statement's snapshot was taken (it waited for it and found it
 * taken, but cannot read it): nothing was written, and the caller sends the statement again.
 */
export async function insertOutboundToContact(
  db: DbOrTx,
  { row, destination, refuseOptedOut, claim }: { row: OutboundRow; destination: string; refuseOptedOut: boolean; claim?: SendClaim },
): Promise<ContactSendOutcome> {
  const { contactId: _id, customerNumber: _n, customerId: _c, ...rest } = row;
  const { statement, record } = sendStatementFor(rest, Boolean(claim));
  const [out] = rowsOf<{
    opted_out: boolean;
    inserted: number;
    request_hash: string | null;
    status_code: number | null;
    response: unknown;
  }>(
    await statement(db, {
      teamId: row.teamId,
      destination,
      refuseOptedOut,
      records: JSON.stringify([record(rest)]),
      ...(claim
        ? {
            key: claim.key,
            requestHash: claim.requestHash,
            statusCode: claim.statusCode,
            response: JSON.stringify(claim.response),
            ttlHours: claim.ttlHours,
          }
        : {}),
    }),
  );
  return {
    inserted: Number(out.inserted) > 0,
    optedOut: out.opted_out === true,
    ...(out.request_hash !== null
      ? { stored: { requestHash: out.request_hash, statusCode: out.status_code, response: out.response } }
      : {}),
  };
}

type SendStatement = { statement: ReturnType<typeof preparedSql>; record: (rest: Record<string, unknown>) => Record<string, unknown> };
/** The single send's statements, by shape of row (its columns, and which of them is DUE_NOW) and whether it claims a key. */
const sendStatements = new Map<string, SendStatement>();

/**
 * insertOutboundToContact's statement for rows of this shape, built once (db/prepared.ts
 * preparedSql): every value a placeholder, so a send only fills its parameters. Its due time,
 * DUE_NOW, is part of the text; any other SQL value would be baked into it, so none is taken.
 */
function sendStatementFor(rest: Record<string, unknown>, keyed: boolean): SendStatement {
  const columns = Object.keys(rest).map((k) => {
    if (rest[k] === DUE_NOW) return `${k}=now`;
    if (rest[k] instanceof SQL) throw new Error(`a send's ${k} must be a value or DUE_NOW`);
    return k;
  });
  const shape = `${keyed}|${columns.join(",")}`;
  let found = sendStatements.get(shape);
  if (!found) sendStatements.set(shape, (found = buildSendStatement(rest, keyed)));
  return found;
}

function buildSendStatement(rest: Record<string, unknown>, keyed: boolean): SendStatement {
  const { names, selects, definition, record } = recordsetOf([rest]);
  const p = (name: string) => sql.placeholder(name);
  const live = keyed ? sql`now() - ${p("ttlHours")}::float8 * interval '1 hour'` : sql`now()`;
  const stored = keyed
    ? sql`SELECT request_hash, status_code, response FROM idempotency_keys
          WHERE team_id = ${p("teamId")}::int AND key = ${p("key")}::text AND created_at > ${live}`
    : sql`SELECT NULL::text AS request_hash, NULL::int AS status_code, NULL::jsonb AS response WHERE false`;
  const claimed = keyed
    ? sql`INSERT INTO idempotency_keys (team_id, key, request_hash, status_code, response)
          SELECT ${p("teamId")}::int, ${p("key")}::text, ${p("requestHash")}::text, ${p("statusCode")}::int, ${p("response")}::jsonb
          FROM contact
          ON CONFLICT (team_id, key) DO UPDATE SET request_hash = excluded.request_hash, status_code = excluded.status_code,
            response = excluded.response, created_at = now()
          WHERE idempotency_keys.created_at < ${live}
          RETURNING key`
    : sql`SELECT 1 AS key FROM contact`;
  const statement = preparedSql(sql`
      WITH opted AS (
        SELECT ${p("refuseOptedOut")}::boolean AND EXISTS (
          SELECT 1 FROM contacts WHERE team_id = ${p("teamId")}::int AND customer_number = ${p("destination")}::text
            AND marketing_opted_out_at IS NOT NULL) AS out
      ),
      stored AS (${stored}),
      go AS (SELECT 1 WHERE NOT (SELECT out FROM opted) AND NOT EXISTS (SELECT 1 FROM stored)),
      ins AS (
        INSERT INTO contacts (team_id, customer_number, customer_id, name)
        SELECT ${p("teamId")}::int, ${p("destination")}::text, NULL, '' FROM go
        ON CONFLICT DO NOTHING
        RETURNING id, customer_number, customer_id
      ),
      contact AS (
        SELECT id, customer_number, customer_id FROM ins
        UNION ALL
        SELECT id, customer_number, customer_id FROM contacts
        WHERE team_id = ${p("teamId")}::int AND customer_number = ${p("destination")}::text AND EXISTS (SELECT 1 FROM go)
      ),
      claimed AS (${claimed}),
      msg AS (
        INSERT INTO messages (${sql.join(names, sql`, `)}, contact_id, customer_number, customer_id)
        SELECT ${sql.join(selects, sql`, `)}, c.id, c.customer_number, c.customer_id
        FROM jsonb_to_recordset(${p("records")}::jsonb) AS r(${definition}), contact c
        WHERE EXISTS (SELECT 1 FROM claimed)
        RETURNING 1
      )
      SELECT (SELECT out FROM opted) AS opted_out, (SELECT count(*)::int FROM msg) AS inserted,
        s.request_hash, s.status_code, s.response
      FROM (SELECT 1) AS one LEFT JOIN stored s ON true`);
  return { statement, record };
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

/** A bulk send's recipient: as a broadcast's, without the contact, which the statement finds or writes by number. */
export type BulkRecipient = Omit<BatchRecipient, "c" | "i">;

/**
 * The columns of many recipients of one shared row: the INSERT's column list and the SELECT's
 * values over the recordset `r` of BatchRecipient fields. Only what differs per recipient travels
 * in `r`; the shared columns are parameters once, and each payload is the shared one with the
 * recipient's texts set in SQL (a fifth of the bytes of shipping whole rows, measured on the
 * bench's 100,000-recipient broadcast). `contact`: where the contact's id, number and customer_id
 * come from (the recordset's own fields, or a joined contact row).
 */
function sharedRowColumns(c: OutboundRow, { slots, contact }: { slots: PayloadSlots; contact: { id: SQL; number: SQL; customerId: SQL } }) {
  let payload = sql`${JSON.stringify(c.payload)}::jsonb`;
  if (slots.headerAt !== null)
    payload = sql`jsonb_set(${payload}, ${`{components,${slots.headerAt},text}`}::text[], coalesce(to_jsonb(r.h), ${payload} #> ${`{components,${slots.headerAt},text}`}::text[]))`;
  if (slots.bodyAt !== null)
    payload = sql`jsonb_set(${payload}, ${`{components,${slots.bodyAt},text}`}::text[], coalesce(to_jsonb(r.b), ${payload} #> ${`{components,${slots.bodyAt},text}`}::text[]))`;
  if (slots.buttonsAt !== null)
    payload = sql`jsonb_set(${payload}, ${`{components,${slots.buttonsAt}}`}::text[], coalesce(r.k, ${payload} #> ${`{components,${slots.buttonsAt}}`}::text[]))`;
  const due = c.nextAttemptAt instanceof SQL ? c.nextAttemptAt : sql`${c.nextAttemptAt.toISOString()}::timestamptz`;
  return {
    columns: sql`(team_id, wa_number_id, contact_id, update_id, customer_number, customer_id, sender, agent_id, agent_name,
      direction, type, status, payload, template_id, template_name, template_language, send_params, media_path, sent_group,
      response_handler, campaign_id, bot_id, next_attempt_at, broadcast_id)`,
    values: sql`${c.teamId}::int, ${c.waNumberId}::int, ${contact.id}, r.u, ${contact.number}, ${contact.customerId}, ${c.sender},
      ${c.agentId ?? 0}::int, ${c.agentName ?? null}, ${c.direction}, ${c.type}, ${c.status}, ${payload}, ${c.templateId ?? null}::int,
      ${c.templateName ?? null}, ${c.templateLanguage ?? null}, r.s, ${c.mediaPath ?? null}, ${c.sentGroup ?? null},
      ${c.responseHandler ?? null}, ${c.campaignId ?? null}::int, ${c.botId ?? null}::int, ${due}, ${c.broadcastId ?? null}::int`,
  };
}

/** Inserts a batch of recipients of one shared row (a broadcast's) in one INSERT … SELECT (sharedRowColumns). */
export async function insertOutboundBatch(
  db: DbOrTx,
  { shared, slots, rows }: { shared: OutboundRow; slots: PayloadSlots; rows: BatchRecipient[] },
) {
  if (!rows.length) return;
  const { columns, values } = sharedRowColumns(shared, { slots, contact: { id: sql`r.c`, number: sql`r.n`, customerId: sql`r.i` } });
  await db.execute(sql`
    INSERT INTO messages ${columns}
    SELECT ${values}
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(c int, u uuid, n text, i text, h text, b text, k jsonb, s jsonb)
    ORDER BY r.c`);
}

/** The CTE `stored` of a keyed write: the key's live answer, if an earlier request stored one (none without a key). */
function storedKeySql(teamId: number, claim: SendClaim | undefined) {
  const live = claim ? sql`now() - ${claim.ttlHours} * interval '1 hour'` : sql`now()`;
  const stored = claim
    ? sql`SELECT request_hash, status_code, response FROM idempotency_keys
          WHERE team_id = ${teamId} AND key = ${claim.key} AND created_at > ${live}`
    : sql`SELECT NULL::text AS request_hash, NULL::int AS status_code, NULL::jsonb AS response WHERE false`;
  /** The CTE `claimed`: the key claimed (insertKeyIfAbsent's rule) when `ready` holds, or one row when `ready` holds without a key. */
  const claimed = (ready: SQL) =>
    claim
      ? sql`INSERT INTO idempotency_keys (team_id, key, request_hash, status_code, response)
            SELECT ${teamId}::int, ${claim.key}, ${claim.requestHash}, ${claim.statusCode}::int, ${JSON.stringify(claim.response)}::jsonb
            WHERE ${ready}
            ON CONFLICT (team_id, key) DO UPDATE SET request_hash = excluded.request_hash, status_code = excluded.status_code,
              response = excluded.response, created_at = now()
            WHERE idempotency_keys.created_at < ${live}
            RETURNING key`
      : sql`SELECT 1 AS key WHERE ${ready}`;
  return { stored, claimed };
}

type KeyedOutcome = { inserted: number; claimed?: number; request_hash: string | null; status_code: number | null; response: unknown };
const outcomeOf = (out: KeyedOutcome) => ({
  inserted: Number(out.inserted) > 0,
  ...(out.request_hash !== null ? { stored: { requestHash: out.request_hash, statusCode: out.status_code, response: out.response } } : {}),
});

/**
 * A reply's whole write in one statement (one round trip, its own transaction, so the message
 * and the assignment commit together): with `claim`, the Idempotency-Key (as
 * insertOutboundToContact claims it), the QUEUED row only with the claim, and with `assign`, the
 * conversation to that agent when it is still unassigned (one conditional UPDATE: of two agents
 * replying at once, the first keeps it) with its `conversation.updated` event (the shape
 * lib/events/catalogue.ts gives it; lib/conversations/service.ts assignOnReply writes the same).
 * A live key already stored writes nothing and comes back (`stored`). `inserted` false without
 * `stored`: the same key was committed by a concurrent request after this statement's snapshot;
 * nothing was written, and the caller sends the statement again.
 */
export async function insertReplyOnce(
  db: DbOrTx,
  { row, claim, assign }: { row: OutboundRow; claim?: SendClaim; assign?: { agentId: number } },
): Promise<{ inserted: boolean; stored?: { requestHash: string; statusCode: number | null; response: unknown } }> {
  const { names, selects, records, definition } = recordsetOf([row]);
  const { stored, claimed } = storedKeySql(row.teamId, claim);
  const assigned = assign
    ? sql`UPDATE conversations SET assignee_agent_id = ${assign.agentId}::int, updated_at = now()
          WHERE team_id = ${row.teamId} AND wa_number_id = ${row.waNumberId} AND contact_id = ${row.contactId}
            AND assignee_agent_id IS NULL AND EXISTS (SELECT 1 FROM msg)
          RETURNING id, team_id, wa_number_id, contact_id`
    : sql`SELECT NULL::int AS id, NULL::int AS team_id, NULL::int AS wa_number_id, NULL::int AS contact_id WHERE false`;
  const [out] = rowsOf<KeyedOutcome>(
    await db.execute(sql`
      WITH stored AS (${stored}),
      claimed AS (${claimed(sql`NOT EXISTS (SELECT 1 FROM stored)`)}),
      msg AS (
        INSERT INTO messages (${sql.join(names, sql`, `)})
        SELECT ${sql.join(selects, sql`, `)}
        FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS r(${definition})
        WHERE EXISTS (SELECT 1 FROM claimed)
        RETURNING 1
      ),
      assigned AS (${assigned}),
      announced AS (
        INSERT INTO events (team_id, type, wa_number_id, contact_id, data)
        SELECT a.team_id, 'conversation.updated', a.wa_number_id, a.contact_id,
          jsonb_build_object('id', a.id, 'assignee_agent_id', ${assign?.agentId ?? null}::int)
        FROM assigned a
        RETURNING 1
      )
      SELECT (SELECT count(*)::int FROM msg) AS inserted, (SELECT count(*) FROM announced) AS announced,
        s.request_hash, s.status_code, s.response
      FROM (SELECT 1) AS one LEFT JOIN stored s ON true`),
  );
  return outcomeOf(out);
}

/**
 * A bulk send's whole write in one statement (one round trip, its own transaction: accepted whole
 * or not at all): with `claim`, the Idempotency-Key; the recipients' contacts by number (each
 * row's `n`; inserted when new in sorted order, so concurrent bulk sends to overlapping numbers
 * lock contacts in one order); and the QUEUED rows, `shared` with each recipient's own fields as a
 * broadcast's batch (sharedRowColumns), each linked to its contact (contact id and customer_id
 * taken from it), in `rows`' order. The key is claimed, and the messages written,
 * only once every recipient's contact is in hand. A live key already stored writes nothing but
 * returns (`stored`). `inserted` false without `stored` (and some rows): a contact or the key was
 * committed by a concurrent request after this statement's snapshot; only contacts (which the next
 * attempt takes) may have been written, and the caller sends the statement again.
 */
export async function insertBulkToContacts(
  db: DbOrTx,
  { shared, slots, rows, claim }: { shared: OutboundRow; slots: PayloadSlots; rows: BulkRecipient[]; claim?: SendClaim },
): Promise<{ inserted: boolean; stored?: { requestHash: string; statusCode: number | null; response: unknown } }> {
  const teamId = shared.teamId;
  const numbers = [...new Set(rows.map((r) => r.n))].sort();
  // One jsonb parameter, not one per number (see the note on jsonb_to_recordset above).
  const numbersJson = JSON.stringify(numbers);
  const { stored, claimed } = storedKeySql(teamId, claim);
  const messagesSql = rows.length
    ? (() => {
        const { columns, values } = sharedRowColumns(shared, {
          slots,
          contact: { id: sql`c.id`, number: sql`c.customer_number`, customerId: sql`c.customer_id` },
        });
        return sql`INSERT INTO messages ${columns}
          SELECT ${values}
          FROM ROWS FROM (jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS (u uuid, n text, h text, b text, k jsonb, s jsonb)) WITH ORDINALITY AS r
          JOIN contact c ON c.customer_number = r.n
          WHERE EXISTS (SELECT 1 FROM claimed)
          ORDER BY r.ordinality
          RETURNING 1`;
      })()
    : sql`SELECT 1 WHERE false`;
  const [out] = rowsOf<KeyedOutcome>(
    await db.execute(sql`
      WITH stored AS (${stored}),
      go AS (SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM stored)),
      ins AS (
        INSERT INTO contacts (team_id, customer_number, customer_id, name)
        SELECT ${teamId}::int, u.n, NULL, '' FROM jsonb_array_elements_text(${numbersJson}::jsonb) WITH ORDINALITY AS u(n, ord)
        WHERE EXISTS (SELECT 1 FROM go)
        ORDER BY u.ord
        ON CONFLICT DO NOTHING
        RETURNING id, customer_number, customer_id
      ),
      contact AS (
        SELECT id, customer_number, customer_id FROM ins
        UNION ALL
        SELECT id, customer_number, customer_id FROM contacts
        WHERE team_id = ${teamId} AND customer_number IN (SELECT jsonb_array_elements_text(${numbersJson}::jsonb)) AND EXISTS (SELECT 1 FROM go)
      ),
      claimed AS (${claimed(sql`EXISTS (SELECT 1 FROM go) AND (SELECT count(*) FROM contact) = ${numbers.length}::int`)}),
      msg AS (${messagesSql})
      SELECT (SELECT count(*)::int FROM msg) AS inserted, (SELECT count(*) FROM claimed) AS claimed,
        s.request_hash, s.status_code, s.response
      FROM (SELECT 1) AS one LEFT JOIN stored s ON true`),
  );
  // With no recipient there is no message: the claim is what was written.
  return rows.length ? outcomeOf(out) : { ...outcomeOf(out), inserted: Number(out.claimed) > 0 };
}
