import "server-only";
import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { messageStatusHistory, messages, waNumbers } from "@/db/schema";

export async function findUpdate(db: DbOrTx, { teamId, updateId }: { teamId: number; updateId: string }) {
  const [row] = await db
    .select({ message: messages, number: waNumbers })
    .from(messages)
    .innerJoin(waNumbers, eq(waNumbers.id, messages.waNumberId))
    .where(and(eq(messages.teamId, teamId), eq(messages.updateId, updateId)))
    .limit(1);
  return row;
}

export async function findUpdateIdOf(db: DbOrTx, { teamId, messageId }: { teamId: number; messageId: number }) {
  const [row] = await db
    .select({ updateId: messages.updateId })
    .from(messages)
    .where(and(eq(messages.teamId, teamId), eq(messages.id, messageId)))
    .limit(1);
  return row?.updateId ?? null;
}

/** The message's status history, oldest first. */
export async function statusHistoryOf(db: DbOrTx, { teamId, messageId }: { teamId: number; messageId: number }) {
  return db
    .select()
    .from(messageStatusHistory)
    .where(and(eq(messageStatusHistory.teamId, teamId), eq(messageStatusHistory.messageId, messageId)))
    .orderBy(asc(messageStatusHistory.id));
}
