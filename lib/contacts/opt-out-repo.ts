import "server-only";
import { and, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { contacts, type MarketingOptOutReason } from "@/db/schema";

/**
 * Marks the contact opted out of marketing, keeping the first time and reason when it already
 * was (a second SALIR does not move the date). Returns the row when this call changed it.
 */
export async function markOptedOut(tx: DbOrTx, teamId: number, contactId: number, reason: MarketingOptOutReason, at?: Date) {
  const [row] = await tx
    .update(contacts)
    .set({ marketingOptedOutAt: at ?? sql`now()`, marketingOptOutReason: reason, updatedAt: sql`now()` })
    .where(and(eq(contacts.teamId, teamId), eq(contacts.id, contactId), isNull(contacts.marketingOptedOutAt)))
    .returning({ id: contacts.id, at: contacts.marketingOptedOutAt, reason: contacts.marketingOptOutReason });
  return row;
}

/** An agent's (or an import's) explicit choice: sets or clears the opt-out. Undefined when the contact is not the team's. */
export async function setOptOut(tx: DbOrTx, teamId: number, contactId: number, optedOut: boolean, reason: MarketingOptOutReason) {
  const [row] = await tx
    .update(contacts)
    .set(
      optedOut
        ? {
            // Already opted out: the first date and reason stay.
            marketingOptedOutAt: sql`coalesce(${contacts.marketingOptedOutAt}, now())`,
            marketingOptOutReason: sql`coalesce(${contacts.marketingOptOutReason}, ${reason})`,
            updatedAt: sql`now()`,
          }
        : { marketingOptedOutAt: null, marketingOptOutReason: null, updatedAt: sql`now()` },
    )
    .where(and(eq(contacts.teamId, teamId), eq(contacts.id, contactId)))
    .returning();
  return row;
}

/** Which of the team's numbers belong to contacts opted out of marketing. */
export async function optedOutNumbers(db: DbOrTx, teamId: number, numbers: string[]): Promise<Set<string>> {
  if (!numbers.length) return new Set();
  const rows = await db
    .select({ n: contacts.customerNumber })
    .from(contacts)
    .where(and(eq(contacts.teamId, teamId), inArray(contacts.customerNumber, numbers), isNotNull(contacts.marketingOptedOutAt)));
  return new Set(rows.map((r) => r.n!));
}
