import "server-only";
import { and, asc, eq, exists, inArray, lte, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { templateChanges, templates, waNumbers } from "@/db/schema";
import type { TemplateRow } from "./repo";

/** The SQL of the template editor (lib/templates/editor-service.ts). */

/** The team's template of this name and language, whatever its status. */
export async function findTemplateByNameLanguage(
  db: DbOrTx,
  { teamId, name, language }: { teamId: number; name: string; language: string },
) {
  const [row] = await db
    .select()
    .from(templates)
    .where(and(eq(templates.teamId, teamId), eq(templates.name, name), eq(templates.language, language)))
    .limit(1);
  return row;
}

/** A submitted template; nothing when (team, name, language) was taken meanwhile (the caller answers 422). */
export async function insertSubmittedTemplate(db: DbOrTx, values: typeof templates.$inferInsert): Promise<TemplateRow | undefined> {
  const [row] = await db.insert(templates).values(values).onConflictDoNothing().returning();
  return row;
}

/**
 * Templates submitted from the editor for a sandbox number that are still PENDING and were
 * submitted at least `reviewMs` ago (their status time is the submission's): what the sandbox's
 * review approves. Only the editor's (a `template_changes` row of source `editor`), never a
 * PENDING template a test or the admin CLI put there.
 */
export async function listDueSandboxReviews(db: DbOrTx, { before, teamIds, limit }: { before: Date; teamIds?: number[]; limit: number }) {
  return db
    .select({
      teamId: templates.teamId,
      waNumberId: waNumbers.id,
      name: templates.name,
      language: templates.language,
      externalId: templates.externalId,
    })
    .from(templates)
    .innerJoin(waNumbers, and(eq(waNumbers.teamId, templates.teamId), eq(waNumbers.id, templates.waNumberId)))
    .where(
      and(
        eq(templates.status, "PENDING"),
        eq(waNumbers.provider, "sandbox"),
        lte(templates.statusChangedAt, before),
        teamIds?.length ? inArray(templates.teamId, teamIds) : undefined,
        exists(
          db
            .select({ one: sql`1` })
            .from(templateChanges)
            .where(
              and(
                eq(templateChanges.teamId, templates.teamId),
                eq(templateChanges.templateId, templates.id),
                eq(templateChanges.source, "editor"),
              ),
            ),
        ),
      ),
    )
    .orderBy(asc(templates.statusChangedAt))
    .limit(limit);
}
