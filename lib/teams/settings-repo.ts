import "server-only";
import { eq } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { teams } from "@/db/schema";

/** The team's settings row (undefined for an unknown team). */
export async function findTeamSettings(db: DbOrTx, { teamId }: { teamId: number }) {
  const [row] = await db
    .select({ defaultCountry: teams.defaultCountry, replyAssigns: teams.replyAssigns, waitingAlertMinutes: teams.waitingAlertMinutes })
    .from(teams)
    .where(eq(teams.id, teamId))
    .limit(1);
  return row;
}

/** The same, locked for a change in this transaction (two admins' changes are audited one after the other). */
export async function lockTeamSettings(tx: Tx, { teamId }: { teamId: number }) {
  const [row] = await tx
    .select({ defaultCountry: teams.defaultCountry, replyAssigns: teams.replyAssigns, waitingAlertMinutes: teams.waitingAlertMinutes })
    .from(teams)
    .where(eq(teams.id, teamId))
    .for("update")
    .limit(1);
  return row;
}

export async function updateTeamSettings(
  db: DbOrTx,
  { teamId, set }: { teamId: number; set: Partial<{ defaultCountry: string | null; replyAssigns: boolean; waitingAlertMinutes: number }> },
) {
  const [row] = await db
    .update(teams)
    .set(set)
    .where(eq(teams.id, teamId))
    .returning({ defaultCountry: teams.defaultCountry, replyAssigns: teams.replyAssigns, waitingAlertMinutes: teams.waitingAlertMinutes });
  return row;
}
