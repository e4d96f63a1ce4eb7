import "server-only";
import { and, desc, eq, lt } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { webhookDeadLetters } from "@/db/schema";

export type DeadLetterInput = {
  teamId: number | null;
  waNumberId: number | null;
  kind: "rejected" | "clamped" | "expired";
  reason: string;
  raw: string;
  /** Where the item came from: Meta's webhooks (the default, `whatsapp`) or a sync's template list (`template_sync`). */
  source?: "whatsapp" | "template_sync";
};

export async function insertDeadLetters(db: DbOrTx, rows: DeadLetterInput[]) {
  if (!rows.length) return;
  await db.insert(webhookDeadLetters).values(rows);
}

/** The newest dead letters first, of one team or of every team (`teamId` undefined: operators only). */
export async function listDeadLetters(db: DbOrTx, opts: { teamId?: number; limit: number; beforeId?: number }) {
  const where = and(
    opts.teamId === undefined ? undefined : eq(webhookDeadLetters.teamId, opts.teamId),
    opts.beforeId === undefined ? undefined : lt(webhookDeadLetters.id, opts.beforeId),
  );
  return db.select().from(webhookDeadLetters).where(where).orderBy(desc(webhookDeadLetters.id)).limit(opts.limit);
}
