import "server-only";
import { and, asc, count, eq, ilike, isNull, or, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { templates } from "@/db/schema";

export type TemplateRow = typeof templates.$inferSelect;

/** `%` and `_` typed by a user are literal characters, not wildcards. */
function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Templates usable from `waNumberId`: its own plus the team-wide ones (wa_number_id null). */
function availableTo(waNumberId: number): SQL {
  return or(eq(templates.waNumberId, waNumberId), isNull(templates.waNumberId))!;
}

export async function listTemplateRows(
  db: DbOrTx,
  teamId: number,
  filter: { search?: string; waNumberId?: number },
  limit: number,
  offset: number,
) {
  const conditions: SQL[] = [eq(templates.teamId, teamId)];
  if (filter.search) conditions.push(ilike(templates.name, likePattern(filter.search)));
  if (filter.waNumberId !== undefined) conditions.push(availableTo(filter.waNumberId));
  const where = and(...conditions);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(templates).where(where).orderBy(asc(templates.name), asc(templates.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(templates).where(where),
  ]);
  return { rows, total };
}

/**
 * The template a send names. A name may exist per language and per number; the number's own
 * template wins over a team-wide one, then the oldest.
 */
export async function findTemplateForNumber(db: DbOrTx, teamId: number, waNumberId: number, name: string) {
  const [row] = await db
    .select()
    .from(templates)
    .where(and(eq(templates.teamId, teamId), eq(templates.name, name), availableTo(waNumberId)))
    .orderBy(sql`${templates.waNumberId} is null`, asc(templates.id))
    .limit(1);
  return row;
}

/** Insert, or refresh the same (team, name, language): re-running a template sync is harmless. */
export async function upsertTemplate(db: DbOrTx, values: typeof templates.$inferInsert): Promise<TemplateRow> {
  const [row] = await db
    .insert(templates)
    .values(values)
    .onConflictDoUpdate({
      target: [templates.teamId, templates.name, templates.language],
      set: {
        waNumberId: values.waNumberId ?? null,
        externalId: values.externalId ?? null,
        category: values.category,
        status: values.status,
        rejectedReason: values.rejectedReason,
        components: values.components,
        defaultMediaPath: values.defaultMediaPath ?? null,
        updatedAt: sql`now()`,
      },
    })
    .returning();
  return row;
}
