import { and, asc, count, eq, ilike, inArray, like, or, sql, type SQL } from "drizzle-orm";
import { getDb, type DbOrTx } from "@/db/client";
import { contactLabels, contacts, labels } from "@/db/schema";

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

export async function listContactRows(teamId: number, search: string | undefined, limit: number, offset: number) {
  const db = await getDb();
  const where = and(eq(contacts.teamId, teamId), search ? contactSearchWhere(search) : undefined);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(contacts).where(where).orderBy(asc(contacts.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(contacts).where(where),
  ]);
  return { rows, total };
}

/** The labels of several contacts in one query, ordered by contact then label id. */
export async function labelsOfContacts(teamId: number, contactIds: number[], tx?: DbOrTx) {
  if (!contactIds.length) return [];
  const db = tx ?? (await getDb());
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
 * Locks the team's contact row for the rest of the transaction: every change to its labels goes
 * through this lock, so concurrent requests take turns and the 5-label cap holds.
 */
export async function lockContact(tx: DbOrTx, teamId: number, contactId: number) {
  const [row] = await tx
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.teamId, teamId), eq(contacts.id, contactId)))
    .for("update");
  return row;
}

/** The ids among `ids` that are labels of the team, key-share locked so they can't vanish before the insert. */
export async function lockTeamLabelIds(tx: DbOrTx, teamId: number, ids: number[]): Promise<Set<number>> {
  // Ids beyond Postgres' integer range name no label (and would make the query fail).
  ids = ids.filter((id) => id <= 2147483647);
  if (!ids.length) return new Set();
  const rows = await tx
    .select({ id: labels.id })
    .from(labels)
    .where(and(eq(labels.teamId, teamId), inArray(labels.id, ids)))
    .for("key share");
  return new Set(rows.map((r) => r.id));
}

export async function assignedLabelIds(tx: DbOrTx, teamId: number, contactId: number): Promise<Set<number>> {
  const rows = await tx
    .select({ labelId: contactLabels.labelId })
    .from(contactLabels)
    .where(and(eq(contactLabels.teamId, teamId), eq(contactLabels.contactId, contactId)));
  return new Set(rows.map((r) => r.labelId));
}

export async function insertAssignments(tx: DbOrTx, teamId: number, contactId: number, labelIds: number[]) {
  if (!labelIds.length) return;
  await tx
    .insert(contactLabels)
    .values(labelIds.map((labelId) => ({ teamId, contactId, labelId })))
    .onConflictDoNothing();
}

export async function deleteAssignments(tx: DbOrTx, teamId: number, contactId: number, labelIds: number[]) {
  await tx
    .delete(contactLabels)
    .where(
      and(eq(contactLabels.teamId, teamId), eq(contactLabels.contactId, contactId), inArray(contactLabels.labelId, labelIds)),
    );
}

export async function insertContact(values: typeof contacts.$inferInsert): Promise<ContactRow> {
  const db = await getDb();
  const [row] = await db.insert(contacts).values(values).returning();
  return row;
}

export async function findContactByNumberOrCustomerId(teamId: number, number: string, customerId: string | null) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(contacts)
    .where(
      and(
        eq(contacts.teamId, teamId),
        or(eq(contacts.customerNumber, number), customerId ? eq(contacts.customerId, customerId) : undefined),
      ),
    )
    .limit(1);
  return row;
}

export async function transaction<T>(fn: (tx: DbOrTx) => Promise<T>): Promise<T> {
  const db = await getDb();
  return db.transaction((tx) => fn(tx));
}
