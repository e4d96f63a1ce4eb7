import "server-only";
import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import { rowsOf, type DbOrTx } from "@/db/client";
import { templateSyncs, templates, waNumbers, webhookDeadLetters } from "@/db/schema";
import type { TemplateRow } from "./repo";

/** The SQL of the sync with Meta's template lists (lib/templates/sync-service.ts). */

export type TemplateSyncRow = typeof templateSyncs.$inferSelect;

/** Every number of the team, oldest first, with what a Graph call needs (credentials stay encrypted here). */
export async function listTeamNumbers(db: DbOrTx, teamId: number) {
  return db.select().from(waNumbers).where(eq(waNumbers.teamId, teamId)).orderBy(asc(waNumbers.id));
}

/** The templates a business account's numbers hold and Meta has not deleted: what a sync may find missing. */
export async function listAccountTemplates(db: DbOrTx, { teamId, waNumberIds }: { teamId: number; waNumberIds: number[] }) {
  if (!waNumberIds.length) return [];
  return db
    .select({ id: templates.id, externalId: templates.externalId, name: templates.name, language: templates.language })
    .from(templates)
    .where(and(eq(templates.teamId, teamId), inArray(templates.waNumberId, waNumberIds), ne(templates.status, "DELETED")))
    .orderBy(asc(templates.id));
}

/**
 * A template Meta lists that the team does not have. Nothing when (team, name, language) is
 * taken: by a concurrent sync (the caller looks again) or by a number of another account.
 */
export async function insertSyncedTemplate(db: DbOrTx, values: typeof templates.$inferInsert): Promise<TemplateRow | undefined> {
  const [row] = await db.insert(templates).values(values).onConflictDoNothing().returning();
  return row;
}

/** What a sync keeps of a template besides Meta's status, quality and category: its content, Meta's id, its number. */
export async function updateSyncedTemplate(
  db: DbOrTx,
  { teamId, id, values }: { teamId: number; id: number; values: Pick<TemplateRow, "components" | "externalId" | "waNumberId"> },
): Promise<TemplateRow> {
  const [row] = await db
    .update(templates)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(templates.teamId, teamId), eq(templates.id, id)))
    .returning();
  return row;
}

/** A sync of the account begins now (asked for: the API or the CLI); its previous answer stays until it ends. */
export async function startTemplateSync(
  db: DbOrTx,
  { teamId, businessAccountId, triggeredBy }: { teamId: number; businessAccountId: string; triggeredBy: string },
) {
  await db
    .insert(templateSyncs)
    .values({ teamId, businessAccountId, triggeredBy })
    .onConflictDoUpdate({
      target: [templateSyncs.teamId, templateSyncs.businessAccountId],
      set: { startedAt: sql`now()`, finishedAt: null, triggeredBy },
    });
}

export async function finishTemplateSync(
  db: DbOrTx,
  { teamId, businessAccountId, result }: { teamId: number; businessAccountId: string; result: unknown },
) {
  await db
    .update(templateSyncs)
    .set({ finishedAt: sql`now()`, result })
    .where(and(eq(templateSyncs.teamId, teamId), eq(templateSyncs.businessAccountId, businessAccountId)));
}

export async function listTemplateSyncs(db: DbOrTx, teamId: number): Promise<TemplateSyncRow[]> {
  return db.select().from(templateSyncs).where(eq(templateSyncs.teamId, teamId)).orderBy(asc(templateSyncs.businessAccountId));
}

/**
 * The business accounts whose last sync began more than `intervalMin` minutes ago (or never),
 * claimed for this process: their start moves to now in the same statement, under FOR UPDATE SKIP
 * LOCKED, so two workers never take the same account and the next claim waits a whole interval
 * again (a crashed sync is retried then, not sooner). Accounts of Cloud API numbers only;
 * `teamIds` limits it to a dedicated worker's teams. At most `limit` per call.
 */
export async function claimDueTemplateSyncs(
  db: DbOrTx,
  { intervalMin, teamIds, limit }: { intervalMin: number; teamIds?: number[]; limit: number },
): Promise<{ teamId: number; businessAccountId: string }[]> {
  const teams = teamIds ? sql`and n.team_id = any(${`{${teamIds.map(Number).join(",")}}`}::int[])` : sql``;
  // Every account gets its row first, never synced (no result) and due at once.
  await db.execute(sql`
    insert into template_syncs (team_id, business_account_id, started_at, finished_at, triggered_by)
    select distinct n.team_id, n.business_account_id, 'epoch'::timestamptz, 'epoch'::timestamptz, 'schedule'
    from wa_numbers n
    where n.provider = 'cloud_api' and n.business_account_id is not null ${teams}
    on conflict do nothing`);
  const res = await db.execute(sql`
    update template_syncs s set started_at = now(), finished_at = null, triggered_by = 'schedule'
    where (s.team_id, s.business_account_id) in (
      select d.team_id, d.business_account_id from template_syncs d
      where d.started_at < now() - make_interval(mins => ${intervalMin}::int)
        and exists (
          select 1 from wa_numbers n
          where n.team_id = d.team_id and n.business_account_id = d.business_account_id and n.provider = 'cloud_api' ${teams}
        )
      order by d.started_at
      limit ${limit}
      for update of d skip locked
    )
    returning s.team_id, s.business_account_id`);
  return rowsOf<{ team_id: number; business_account_id: string }>(res).map((r) => ({
    teamId: Number(r.team_id),
    businessAccountId: r.business_account_id,
  }));
}

/**
 * Whether this exact item was already set aside by a sync of the team: a malformed template Meta
 * keeps listing is kept once, not once per scheduled sync.
 */
export async function syncDeadLetterKept(db: DbOrTx, { teamId, reason, raw }: { teamId: number; reason: string; raw: string }) {
  const [row] = await db
    .select({ id: webhookDeadLetters.id })
    .from(webhookDeadLetters)
    .where(
      and(
        eq(webhookDeadLetters.teamId, teamId),
        eq(webhookDeadLetters.source, "template_sync"),
        eq(webhookDeadLetters.reason, reason),
        eq(webhookDeadLetters.raw, raw),
      ),
    )
    .limit(1);
  return !!row;
}
