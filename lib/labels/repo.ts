import "server-only";
import { and, asc, count, eq, inArray, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { contactLabels, labels } from "@/db/schema";

export type LabelRow = typeof labels.$inferSelect;

export async function listLabelRows(db: DbOrTx, { teamId, limit, offset }: { teamId: number; limit: number; offset: number }) {
  const where = eq(labels.teamId, teamId);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(labels).where(where).orderBy(asc(labels.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(labels).where(where),
  ]);
  return { rows, total };
}

/** How many contacts hold each of `labelIds`: one grouped query over the page's labels (not one per label). */
export async function contactCountsOfLabels(
  db: DbOrTx,
  { teamId, labelIds }: { teamId: number; labelIds: number[] },
): Promise<Map<number, number>> {
  if (!labelIds.length) return new Map();
  const rows = await db
    .select({ labelId: contactLabels.labelId, n: count() })
    .from(contactLabels)
    .where(and(eq(contactLabels.teamId, teamId), inArray(contactLabels.labelId, labelIds)))
    .groupBy(contactLabels.labelId);
  return new Map(rows.map((r) => [r.labelId, Number(r.n)]));
}

/** The ids among `ids` that are labels of the team. */
export async function teamLabelIds(db: DbOrTx, { teamId, ids }: { teamId: number; ids: number[] }): Promise<Set<number>> {
  // Ids beyond Postgres' integer range name no label (and would make the query fail).
  ids = ids.filter((id) => id <= 2147483647);
  if (!ids.length) return new Set();
  const rows = await db
    .select({ id: labels.id })
    .from(labels)
    .where(and(eq(labels.teamId, teamId), inArray(labels.id, ids)));
  return new Set(rows.map((r) => r.id));
}

export async function findLabelRow(db: DbOrTx, { teamId, id }: { teamId: number; id: number }) {
  const [row] = await db
    .select()
    .from(labels)
    .where(and(eq(labels.teamId, teamId), eq(labels.id, id)))
    .limit(1);
  return row;
}

/** Whether another label of the team already has this title (case-insensitive). */
export async function titleTaken(db: DbOrTx, { teamId, title, exceptId }: { teamId: number; title: string; exceptId?: number }) {
  const [row] = await db
    .select({ id: labels.id })
    .from(labels)
    .where(
      and(
        eq(labels.teamId, teamId),
        sql`lower(${labels.title}) = lower(${title})`,
        exceptId === undefined ? undefined : ne(labels.id, exceptId),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** The team's label with this title, compared as titleTaken does (case-insensitive). */
export async function findLabelByTitle(db: DbOrTx, { teamId, title }: { teamId: number; title: string }) {
  const [row] = await db
    .select()
    .from(labels)
    .where(and(eq(labels.teamId, teamId), sql`lower(${labels.title}) = lower(${title})`))
    .orderBy(asc(labels.id))
    .limit(1);
  return row;
}

/**
 * Serializes title-changing writes of one team, so two concurrent requests cannot both pass the
 * duplicate-title check (the table has no unique index on the title). Released at commit.
 */
export async function lockTeamLabels(db: DbOrTx, teamId: number) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('labels'), ${teamId}::int)`);
}

export async function insertLabel(db: DbOrTx, values: typeof labels.$inferInsert) {
  const [row] = await db.insert(labels).values(values).returning();
  return row;
}

export async function updateLabelRow(
  db: DbOrTx,
  { teamId, id, values }: { teamId: number; id: number; values: Partial<typeof labels.$inferInsert> },
) {
  const [row] = await db
    .update(labels)
    .set(values)
    .where(and(eq(labels.teamId, teamId), eq(labels.id, id)))
    .returning();
  return row;
}

/** Assignments go with the label (contact_labels cascades on label_id). */
export async function deleteLabelRow(db: DbOrTx, { teamId, id }: { teamId: number; id: number }) {
  const rows = await db
    .delete(labels)
    .where(and(eq(labels.teamId, teamId), eq(labels.id, id)))
    .returning({ id: labels.id });
  return rows.length > 0;
}
