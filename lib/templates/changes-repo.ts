import "server-only";
import { and, count, desc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { templateChanges, templates } from "@/db/schema";
import type { TemplateRow } from "./repo";

export type TemplateChangeRow = typeof templateChanges.$inferSelect;

/**
 * The team's template a Meta webhook names, locked for the change (FOR NO KEY UPDATE): by Meta's id first, else by
 * name and language, among the templates of the business account's numbers (`waNumberIds`) and
 * the team-wide ones. Name and language are unique per team, so there is at most one of each.
 */
export async function lockTemplateForMeta(
  db: DbOrTx,
  {
    teamId,
    waNumberIds,
    metaId,
    name,
    language,
  }: { teamId: number; waNumberIds: number[]; metaId: string | null; name: string | null; language: string | null },
): Promise<TemplateRow | undefined> {
  const byId = metaId ? eq(templates.externalId, metaId) : undefined;
  const byName = name && language ? and(eq(templates.name, name), eq(templates.language, language)) : undefined;
  const [row] = await db
    .select()
    .from(templates)
    .where(
      and(
        eq(templates.teamId, teamId),
        or(waNumberIds.length ? inArray(templates.waNumberId, waNumberIds) : undefined, isNull(templates.waNumberId)),
        or(byId, byName),
      ),
    )
    .orderBy(metaId ? sql`${templates.externalId} = ${metaId} desc nulls last` : sql`1`, templates.id)
    .limit(1)
    // Not FOR UPDATE: a send's INSERT referencing the template takes KEY SHARE on it, and an
    // enqueue batch holding a broadcast this change pauses would then wait for us while we wait for it.
    .for("no key update");
  return row;
}

export async function updateTemplateFromMeta(
  db: DbOrTx,
  {
    teamId,
    id,
    values,
  }: {
    teamId: number;
    id: number;
    values: Partial<Pick<TemplateRow, "status" | "rejectedReason" | "category" | "qualityScore" | "statusChangedAt" | "externalId">>;
  },
): Promise<TemplateRow> {
  const [row] = await db
    .update(templates)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(templates.teamId, teamId), eq(templates.id, id)))
    .returning();
  return row;
}

export async function insertTemplateChange(db: DbOrTx, values: typeof templateChanges.$inferInsert) {
  await db.insert(templateChanges).values(values);
}

/** Whether this change (same field, value and Meta time) is already kept: a redelivered notice. */
export async function templateChangeKept(
  db: DbOrTx,
  {
    teamId,
    templateId,
    field,
    value,
    metaAt,
  }: { teamId: number; templateId: number; field: TemplateChangeRow["field"]; value: string; metaAt: Date },
): Promise<boolean> {
  const [row] = await db
    .select({ id: templateChanges.id })
    .from(templateChanges)
    .where(
      and(
        eq(templateChanges.teamId, teamId),
        eq(templateChanges.templateId, templateId),
        eq(templateChanges.field, field),
        eq(templateChanges.value, value),
        eq(templateChanges.metaAt, metaAt),
      ),
    )
    .limit(1);
  return !!row;
}

/** A page of a template's changes, newest first, and how many it has. */
export async function listTemplateChanges(
  db: DbOrTx,
  { teamId, templateId, limit, offset }: { teamId: number; templateId: number; limit: number; offset: number },
) {
  const where = and(eq(templateChanges.teamId, teamId), eq(templateChanges.templateId, templateId));
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(templateChanges).where(where).orderBy(desc(templateChanges.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(templateChanges).where(where),
  ]);
  return { rows, total };
}
