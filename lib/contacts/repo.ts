import "server-only";
import { and, asc, count, eq, exists, gt, ilike, inArray, like, max, or, sql, type SQL } from "drizzle-orm";
import { rowsOf, type DbOrTx } from "@/db/client";
import { contactLabels, contacts, conversations, labels } from "@/db/schema";
import type { LabelDto } from "@/lib/labels/schemas";

export type ContactRow = typeof contacts.$inferSelect;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, "\\$&");

/**
 * Name (case-insensitive, substring), number (substring of its digits, when the search is written
 * like a phone number: "+57 300-123") or customer_id (exact).
 */
// Agents type "maria" for "María": names are compared with accents folded on both sides.
// translate() is core Postgres (unaccent is an extension PGlite does not ship).
const ACCENTED = "áàâäãéèêëíìîïóòôöõúùûüñçÁÀÂÄÃÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜÑÇ";
const PLAIN = "aaaaaeeeeiiiiooooouuuuncAAAAAEEEEIIIIOOOOOUUUUNC";
function foldAccents(text: string): string {
  return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
}

export function contactSearchWhere(search: string): SQL | undefined {
  const digits = /^[\d\s+\-().]+$/.test(search) ? search.replace(/\D/g, "") : "";
  return or(
    ilike(sql`translate(${contacts.name}, ${ACCENTED}, ${PLAIN})`, `%${escapeLike(foldAccents(search))}%`),
    digits ? like(contacts.customerNumber, `%${digits}%`) : undefined,
    eq(contacts.customerId, search),
  );
}

/** Contacts holding any of `labelIds` (the primary key (contact_id, label_id) answers each probe). */
export function contactHasAnyLabelWhere(teamId: number, labelIds: number[]): SQL {
  return exists(
    sql`(select 1 from ${contactLabels} where ${and(
      eq(contactLabels.teamId, teamId),
      eq(contactLabels.contactId, contacts.id),
      inArray(contactLabels.labelId, labelIds),
    )})`,
  );
}

export async function listContactRows(
  db: DbOrTx,
  {
    teamId,
    search,
    limit,
    offset,
    labelIds,
  }: { teamId: number; search: string | undefined; limit: number; offset: number; labelIds?: number[] },
) {
  const where = and(
    eq(contacts.teamId, teamId),
    search ? contactSearchWhere(search) : undefined,
    labelIds?.length ? contactHasAnyLabelWhere(teamId, labelIds) : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(contacts).where(where).orderBy(asc(contacts.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(contacts).where(where),
  ]);
  return { rows, total };
}

/** A page of the team's contacts after `afterId` in id order (keyset): the CSV export's pages. */
export async function contactRowsAfter(
  db: DbOrTx,
  { teamId, afterId, limit, search, labelIds }: { teamId: number; afterId: number; limit: number; search?: string; labelIds?: number[] },
) {
  return db
    .select()
    .from(contacts)
    .where(
      and(
        eq(contacts.teamId, teamId),
        gt(contacts.id, afterId),
        search ? contactSearchWhere(search) : undefined,
        labelIds?.length ? contactHasAnyLabelWhere(teamId, labelIds) : undefined,
      ),
    )
    .orderBy(asc(contacts.id))
    .limit(limit);
}

/** The labels of several contacts in one query, ordered by contact then label id. */
export async function labelsOfContacts(db: DbOrTx, { teamId, contactIds }: { teamId: number; contactIds: number[] }) {
  if (!contactIds.length) return [];
  return db
    .select({
      contactId: contactLabels.contactId,
      id: labels.id,
      title: labels.title,
      description: labels.description,
      bgColor: labels.bgColor,
      textColor: labels.textColor,
    })
    .from(contactLabels)
    .innerJoin(labels, eq(labels.id, contactLabels.labelId))
    .where(and(eq(contactLabels.teamId, teamId), eq(labels.teamId, teamId), inArray(contactLabels.contactId, contactIds)))
    .orderBy(asc(contactLabels.contactId), asc(labels.id));
}

/**
 * Each contact's last activity: the newest `last_message_at` over its conversations (one per
 * company number), read from the conversations rows the message trigger keeps, never from
 * messages. Contacts without a conversation are absent from the map.
 */
export async function lastActivityOfContacts(
  db: DbOrTx,
  { teamId, contactIds }: { teamId: number; contactIds: number[] },
): Promise<Map<number, Date>> {
  if (!contactIds.length) return new Map();
  const rows = await db
    .select({ contactId: conversations.contactId, at: max(conversations.lastMessageAt) })
    .from(conversations)
    .where(and(eq(conversations.teamId, teamId), inArray(conversations.contactId, contactIds)))
    .groupBy(conversations.contactId);
  return new Map(rows.filter((r) => r.at).map((r) => [r.contactId, new Date(r.at!)]));
}

/** What changeLabelsOfContact found and, when everything held, did. */
export type LabelChangeResult = {
  contactFound: boolean;
  /** Every id is one of the team's labels. */
  labelsFound: boolean;
  /** add: the labels the contact would hold (ids counted as given); remove: every id is assigned. */
  countAfterAdd: number;
  allAssigned: boolean;
  /** Whether the change (and its `contact.labels` event) was written. */
  changed: boolean;
  /** The labels the contact holds afterwards, as the API answers them (snake_case, like the event's). */
  labels: LabelDto[];
};

/**
 * A contact's label change in ONE statement and one round trip, committed on its own:
 * db/functions/contact_labels_change.sql locks the contact's row, then checks every id is the
 * team's label and the cap (`add`) or that every id is assigned (`remove`), and only when that
 * holds writes the change and its `contact.labels` event. The lock makes parallel changes of one
 * contact be checked one after another against the cap (the function says why it needs to be a
 * function for that). Five statements of the label hot path, then a transaction of
 * three round trips, folded into one.
 */
export async function changeLabelsOfContact(
  db: DbOrTx,
  input: { teamId: number; contactId: number; ids: number[]; mode: "add" | "remove"; maxLabels: number },
): Promise<LabelChangeResult> {
  const { teamId, contactId, mode, maxLabels } = input;
  const ids = `{${input.ids.map((id) => String(Math.trunc(id))).join(",")}}`;
  const res = await db.execute(
    sql`SELECT * FROM contact_labels_change(${teamId}::int, ${contactId}::int, ${ids}::bigint[], ${mode}::text, ${maxLabels}::int)`,
  );
  const [row] = rowsOf<{
    contact_found: boolean;
    labels_found: boolean;
    count_after_add: number;
    all_assigned: boolean;
    changed: boolean;
    labels: LabelChangeResult["labels"] | string;
  }>(res);
  return {
    contactFound: row.contact_found,
    labelsFound: row.labels_found,
    countAfterAdd: Number(row.count_after_add),
    allAssigned: row.all_assigned,
    changed: row.changed,
    labels: typeof row.labels === "string" ? JSON.parse(row.labels) : row.labels,
  };
}

export type ContactKey = { number: string | null; customerId?: string | null; name?: string | null };
export type UpsertedContact = { id: number; customerNumber: string | null; customerId: string | null; name: string; created: boolean };

type UpsertRow = { id: number | string; customer_number: string | null; customer_id: string | null; name: string; created: boolean };

/**
 * The one way contacts come into being (single and bulk sends, inbound messages, the admin CLI):
 * the team's contact for each key, found by number (else by customer_id) or created, in the
 * order of `keys`. `created` tells which rows this call inserted. With `refresh`, an existing
 * contact takes the key's non-empty name and any number or customer_id it was missing.
 *
 * Correct under concurrency in READ COMMITTED: the insert (ON CONFLICT DO NOTHING, on every
 * unique index) waits for a concurrent transaction inserting the same number or customer_id
 * and then skips it; the read of existing rows in the same statement uses the statement's
 * snapshot and may miss that row, so what is missing is read again in a second statement, whose
 * snapshot sees it. DO NOTHING (unlike a no-op DO UPDATE) neither rewrites nor locks existing
 * rows. New keys are inserted in the caller's order: callers pass sorted numbers so that
 * concurrent writers wait on each other in one order.
 */
export async function upsertContacts(
  db: DbOrTx,
  { teamId, keys, opts = {} }: { teamId: number; keys: ContactKey[]; opts?: { refresh?: boolean } },
): Promise<UpsertedContact[]> {
  if (!keys.length) return [];
  if (keys.some((k) => !k.number && !k.customerId)) {
    // A key with neither number nor customer_id matches no contact: it is always a new one.
    const out: UpsertedContact[] = [];
    for (const k of keys) {
      if (k.number || k.customerId) out.push(...(await upsertContacts(db, { teamId, keys: [k], opts })));
      else {
        const [row] = await db
          .insert(contacts)
          .values({ teamId, name: k.name ?? "" })
          .returning({ id: contacts.id, customerNumber: contacts.customerNumber, customerId: contacts.customerId, name: contacts.name });
        out.push({ ...row, created: true });
      }
    }
    return out;
  }
  const numbers = [...new Set(keys.map((k) => k.number).filter((n): n is string => !!n))];
  const customerIds = [...new Set(keys.map((k) => k.customerId).filter((c): c is string => !!c))];
  const records = keys.map((k) => ({ n: k.number ?? null, c: k.customerId ?? null, name: k.name ?? "" }));
  const rows = rowsOf<UpsertRow>(
    await db.execute(sql`
      WITH ins AS (
        INSERT INTO ${contacts} (team_id, customer_number, customer_id, name)
        SELECT ${teamId}::int, e.v->>'n', e.v->>'c', e.v->>'name'
        FROM jsonb_array_elements(${JSON.stringify(records)}::jsonb) WITH ORDINALITY AS e(v, ord)
        ORDER BY e.ord
        ON CONFLICT DO NOTHING
        RETURNING id, customer_number, customer_id, name, true AS created)
      SELECT id, customer_number, customer_id, name, created FROM ins
      UNION ALL
      SELECT id, customer_number, customer_id, name, false FROM ${contacts}
      WHERE team_id = ${teamId} AND (${anyOf(sql`customer_number`, numbers)} OR ${anyOf(sql`customer_id`, customerIds)})`),
  ).map(toUpserted);
  let found = keys.map((k) => match(rows, k));
  const missing = keys.filter((_, i) => !found[i]);
  if (missing.length) {
    // Inserted by a transaction that committed after the statement above took its snapshot.
    const again = rowsOf<UpsertRow>(
      await db.execute(sql`
        SELECT id, customer_number, customer_id, name, false AS created FROM ${contacts}
        WHERE team_id = ${teamId}
          AND (${anyOf(sql`customer_number`, numbers)} OR ${anyOf(sql`customer_id`, customerIds)})`),
    ).map(toUpserted);
    found = keys.map((k, i) => found[i] ?? match(again, k));
  }
  const result: UpsertedContact[] = [];
  for (const [i, k] of keys.entries()) {
    const row = found[i];
    if (!row) throw new Error("upsertContacts: a contact neither inserted nor found");
    result.push(opts.refresh && !row.created ? await refreshContact(db, { teamId, row, key: k }) : row);
  }
  return result;
}

/** `column = ANY(values)`, the values shipped as one jsonb parameter (an index condition on the unique index). */
function anyOf(column: SQL, values: string[]): SQL {
  if (!values.length) return sql`false`;
  return sql`${column} = ANY(ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)))`;
}

function toUpserted(r: UpsertRow): UpsertedContact {
  return { id: Number(r.id), customerNumber: r.customer_number, customerId: r.customer_id, name: r.name, created: r.created === true };
}

function match(rows: UpsertedContact[], k: ContactKey): UpsertedContact | undefined {
  return (
    (k.number ? rows.find((r) => r.customerNumber === k.number) : undefined) ??
    (k.customerId ? rows.find((r) => r.customerId === k.customerId) : undefined)
  );
}

async function refreshContact(
  db: DbOrTx,
  { teamId, row, key: k }: { teamId: number; row: UpsertedContact; key: ContactKey },
): Promise<UpsertedContact> {
  const patch: Partial<typeof contacts.$inferInsert> = {};
  if (k.name && k.name !== row.name) patch.name = k.name;
  if (!row.customerId && k.customerId) patch.customerId = k.customerId;
  if (!row.customerNumber && k.number) patch.customerNumber = k.number;
  if (!Object.keys(patch).length) return row;
  const [updated] = await db
    .update(contacts)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(and(eq(contacts.teamId, teamId), eq(contacts.id, row.id)))
    .returning({ id: contacts.id, customerNumber: contacts.customerNumber, customerId: contacts.customerId, name: contacts.name });
  return updated ? { ...updated, created: false } : row;
}
