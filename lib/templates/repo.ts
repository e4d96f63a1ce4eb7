import "server-only";
import { and, asc, count, eq, ilike, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { templates, waNumbers } from "@/db/schema";
import { SENDABLE_STATUSES } from "./sendable";

export type TemplateRow = typeof templates.$inferSelect;

/** `%` and `_` typed by a user are literal characters, not wildcards. */
function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Templates usable from `waNumberId`: its own plus the team-wide ones (wa_number_id null). */
function availableTo(waNumberId: number): SQL {
  return or(eq(templates.waNumberId, waNumberId), isNull(templates.waNumberId))!;
}

/** A page of the team's templates, each with its number's digits (null: a template of every number). */
export async function listTemplateRows(
  db: DbOrTx,
  {
    teamId,
    filter,
    limit,
    offset,
  }: {
    teamId: number;
    filter: { search?: string; waNumberId?: number; sendableOnly?: boolean; status?: string };
    limit: number;
    offset: number;
  },
) {
  const conditions: SQL[] = [eq(templates.teamId, teamId)];
  if (filter.sendableOnly) conditions.push(inArray(templates.status, [...SENDABLE_STATUSES]));
  if (filter.status) conditions.push(eq(templates.status, filter.status));
  if (filter.search) conditions.push(ilike(templates.name, likePattern(filter.search)));
  if (filter.waNumberId !== undefined) conditions.push(availableTo(filter.waNumberId));
  const where = and(...conditions);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ template: templates, waNumber: waNumbers.number })
      .from(templates)
      .leftJoin(waNumbers, and(eq(waNumbers.teamId, templates.teamId), eq(waNumbers.id, templates.waNumberId)))
      .where(where)
      .orderBy(asc(templates.name), asc(templates.id))
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(templates).where(where),
  ]);
  return { rows, total };
}

/**
 * A template by the id the API shows it with (toTemplateDto): Meta's id when it has one, else
 * ours; another team's answers like a missing one.
 */
export async function findTemplateByApiId(db: DbOrTx, { teamId, apiId }: { teamId: number; apiId: string }) {
  const ours = /^[1-9][0-9]{0,9}$/.test(apiId) && Number(apiId) <= 2147483647 ? Number(apiId) : null;
  const [row] = await db
    .select()
    .from(templates)
    .where(
      and(
        eq(templates.teamId, teamId),
        or(eq(templates.externalId, apiId), ours === null ? undefined : and(isNull(templates.externalId), eq(templates.id, ours))),
      ),
    )
    .orderBy(sql`${templates.externalId} = ${apiId} desc nulls last`, asc(templates.id))
    .limit(1);
  return row;
}

/**
 * The template a send names. A name may exist per language and per number; the number's own
 * template wins over a team-wide one, then the oldest.
 */
export async function findTemplateForNumber(
  db: DbOrTx,
  { teamId, waNumberId, name }: { teamId: number; waNumberId: number; name: string },
) {
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
