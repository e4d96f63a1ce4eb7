import "server-only";
import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { numberHealthChanges, waNumbers } from "@/db/schema";

export type NumberHealth = Pick<
  typeof waNumbers.$inferSelect,
  "id" | "number" | "qualityRating" | "messagingLimitTier" | "healthEvent" | "healthUpdatedAt"
>;

const healthColumns = {
  id: waNumbers.id,
  number: waNumbers.number,
  qualityRating: waNumbers.qualityRating,
  messagingLimitTier: waNumbers.messagingLimitTier,
  healthEvent: waNumbers.healthEvent,
  healthUpdatedAt: waNumbers.healthUpdatedAt,
};

/** The health of some of the team's numbers, locked for a change (FOR NO KEY UPDATE), in id order. */
export async function lockNumbersHealth(db: DbOrTx, { teamId, ids }: { teamId: number; ids: number[] }): Promise<NumberHealth[]> {
  if (!ids.length) return [];
  return (
    db
      .select(healthColumns)
      .from(waNumbers)
      .where(and(eq(waNumbers.teamId, teamId), inArray(waNumbers.id, ids)))
      .orderBy(waNumbers.id)
      // Not FOR UPDATE: every message INSERT takes KEY SHARE on its number, which this must not block.
      .for("no key update")
  );
}

export async function updateNumberHealth(
  db: DbOrTx,
  {
    teamId,
    id,
    values,
  }: { teamId: number; id: number; values: Pick<NumberHealth, "qualityRating" | "messagingLimitTier" | "healthEvent"> },
) {
  await db
    .update(waNumbers)
    .set({ ...values, healthUpdatedAt: new Date() })
    .where(and(eq(waNumbers.teamId, teamId), eq(waNumbers.id, id)));
}

export async function insertNumberHealthChange(db: DbOrTx, values: typeof numberHealthChanges.$inferInsert) {
  await db.insert(numberHealthChanges).values(values);
}

/** Whether this event of the number at this Meta time is already kept (a redelivered account_update). */
export async function numberHealthChangeKept(
  db: DbOrTx,
  { teamId, waNumberId, event, metaAt }: { teamId: number; waNumberId: number; event: string; metaAt: Date },
): Promise<boolean> {
  const [row] = await db
    .select({ id: numberHealthChanges.id })
    .from(numberHealthChanges)
    .where(
      and(
        eq(numberHealthChanges.teamId, teamId),
        eq(numberHealthChanges.waNumberId, waNumberId),
        eq(numberHealthChanges.event, event),
        eq(numberHealthChanges.metaAt, metaAt),
      ),
    )
    .limit(1);
  return !!row;
}
