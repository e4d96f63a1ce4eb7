import "server-only";
import { and, asc, count, eq, ilike, ne, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { savedReplies } from "@/db/schema";

export type SavedReplyRow = typeof savedReplies.$inferSelect;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, "\\$&");
// As the contacts search: accents folded on both sides with core Postgres translate().
const ACCENTED = "áàâäãéèêëíìîïóòôöõúùûüñçÁÀÂÄÃÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜÑÇ";
const PLAIN = "aaaaaeeeeiiiiooooouuuuncAAAAAEEEEIIIIOOOOOUUUUNC";
const fold = (s: string) => s.normalize("NFD").replace(/[\u0300-\u036f]/g, "");

/** The team's saved replies by shortcut, optionally narrowed by a search over shortcut, title and content. */
export async function listSavedReplyRows(
  db: DbOrTx,
  { teamId, search, limit, offset }: { teamId: number; search: string | undefined; limit: number; offset: number },
) {
  const pattern = search ? `%${escapeLike(fold(search))}%` : undefined;
  const where = and(
    eq(savedReplies.teamId, teamId),
    pattern
      ? or(
          ilike(savedReplies.shortcut, pattern),
          ilike(sql`translate(${savedReplies.title}, ${ACCENTED}, ${PLAIN})`, pattern),
          ilike(sql`translate(${savedReplies.content}, ${ACCENTED}, ${PLAIN})`, pattern),
        )
      : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(savedReplies).where(where).orderBy(asc(savedReplies.shortcut)).limit(limit).offset(offset),
    db.select({ total: count() }).from(savedReplies).where(where),
  ]);
  return { rows, total: Number(total) };
}

export async function findSavedReplyRow(db: DbOrTx, { teamId, id }: { teamId: number; id: number }) {
  const [row] = await db
    .select()
    .from(savedReplies)
    .where(and(eq(savedReplies.teamId, teamId), eq(savedReplies.id, id)))
    .limit(1);
  return row;
}

/** Serializes shortcut-changing writes of one team, so the taken check and the write agree. */
export async function lockTeamShortcuts(db: DbOrTx, teamId: number) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('saved_replies'), ${teamId}::int)`);
}

export async function shortcutTaken(db: DbOrTx, { teamId, shortcut, exceptId }: { teamId: number; shortcut: string; exceptId?: number }) {
  const [row] = await db
    .select({ id: savedReplies.id })
    .from(savedReplies)
    .where(
      and(
        eq(savedReplies.teamId, teamId),
        eq(savedReplies.shortcut, shortcut),
        exceptId === undefined ? undefined : ne(savedReplies.id, exceptId),
      ),
    )
    .limit(1);
  return Boolean(row);
}

export async function insertSavedReply(db: DbOrTx, values: typeof savedReplies.$inferInsert) {
  const [row] = await db.insert(savedReplies).values(values).returning();
  return row;
}

export async function updateSavedReplyRow(
  db: DbOrTx,
  { teamId, id, values }: { teamId: number; id: number; values: Partial<Pick<SavedReplyRow, "shortcut" | "title" | "content">> },
) {
  const [row] = await db
    .update(savedReplies)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(savedReplies.teamId, teamId), eq(savedReplies.id, id)))
    .returning();
  return row;
}

export async function deleteSavedReplyRow(db: DbOrTx, { teamId, id }: { teamId: number; id: number }) {
  const rows = await db
    .delete(savedReplies)
    .where(and(eq(savedReplies.teamId, teamId), eq(savedReplies.id, id)))
    .returning({ id: savedReplies.id });
  return rows.length > 0;
}
