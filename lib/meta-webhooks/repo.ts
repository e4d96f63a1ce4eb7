import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { messages, waNumberSecretsVersion, waNumbers } from "@/db/schema";

export async function cloudNumbers(db: DbOrTx) {
  return db.select().from(waNumbers).where(eq(waNumbers.provider, "cloud_api"));
}

/** Moves with every change of numbers' credentials (migration 0011's table; db/functions/wa_numbers_bump_secrets_version.sql bumps it); one primary-key read. */
export async function secretsVersion(db: DbOrTx): Promise<number> {
  const [row] = await db.select({ version: waNumberSecretsVersion.version }).from(waNumberSecretsVersion).limit(1);
  return Number(row?.version ?? 0);
}

/** wamid of one of the team's messages on this number, by its update_id (sandbox replies quoting it). */
export async function providerIdByUpdateId(
  db: DbOrTx,
  { teamId, waNumberId, updateId }: { teamId: number; waNumberId: number; updateId: string },
) {
  const [row] = await db
    .select({ providerMessageId: messages.providerMessageId })
    .from(messages)
    .where(and(eq(messages.teamId, teamId), eq(messages.waNumberId, waNumberId), eq(messages.updateId, updateId)))
    .limit(1);
  return row;
}
