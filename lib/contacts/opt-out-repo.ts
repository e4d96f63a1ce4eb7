import "server-only";
import { and, eq, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { contacts, type MarketingOptOutReason } from "@/db/schema";

/**
 * Marks the contact opted out of marketing, keeping the first time and reason when it already
 * was (a second SALIR does not move the date). Returns the row when this call changed it.
 */
export async function markOptedOut(
  db: DbOrTx,
  { teamId, contactId, reason, at }: { teamId: number; contactId: number; reason: MarketingOptOutReason; at?: Date },
) {
  const [row] = await db
    .update(contacts)
    .set({ marketingOptedOutAt: at ?? sql`now()`, marketingOptOutReason: reason, updatedAt: sql`now()` })
    .where(and(eq(contacts.teamId, teamId), eq(contacts.id, contactId), isNull(contacts.marketingOptedOutAt)))
    .returning({ id: contacts.id, at: contacts.marketingOptedOutAt, reason: contacts.marketingOptOutReason });
  return row;
}

/** An agent's (or an import's) explicit choice: sets or clears the opt-out. Undefined when the contact is not the team's. */
export async function setOptOut(
  db: DbOrTx,
  { teamId, contactId, optedOut, reason }: { teamId: number; contactId: number; optedOut: boolean; reason: MarketingOptOutReason },
) {
  const [row] = await db
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
export async function optedOutNumbers(db: DbOrTx, { teamId, numbers }: { teamId: number; numbers: string[] }): Promise<Set<string>> {
  if (!numbers.length) return new Set();
  const rows = await db
    .select({ n: contacts.customerNumber })
    .from(contacts)
    .where(and(eq(contacts.teamId, teamId), inArray(contacts.customerNumber, numbers), isNotNull(contacts.marketingOptedOutAt)));
  return new Set(rows.map((r) => r.n!));
}

/**
 * Whether the outbound message of alias `m` is a template of the MARKETING category (its template
 * as it is now: Meta may recategorise one) to a contact opted out of marketing. The delivery
 * worker's claim (lib/delivery/repo.ts claimMessages) reads it for each message it claims, so an
 * opt-out recorded after the message was queued still stops it. The contact test comes first:
 * almost every contact receives marketing, and a false first operand skips the template lookup.
 * Each lookup is one row by a unique key: the contact by id, the template as the send finds it
 * (lib/delivery/repo.ts findTemplateForMessage: by id, else by name and language).
 */
export function marketingRefusedSql(m: SQL): SQL {
  const marketing = sql`upper(t.category) = 'MARKETING'`;
  return sql`(${m}.type = 'template'
    AND EXISTS (SELECT 1 FROM contacts c WHERE c.team_id = ${m}.team_id AND c.id = ${m}.contact_id AND c.marketing_opted_out_at IS NOT NULL)
    AND CASE WHEN ${m}.template_id IS NOT NULL
      THEN EXISTS (SELECT 1 FROM templates t WHERE t.team_id = ${m}.team_id AND t.id = ${m}.template_id AND ${marketing})
      ELSE EXISTS (SELECT 1 FROM templates t WHERE t.team_id = ${m}.team_id AND t.name = ${m}.template_name
                     AND t.language = ${m}.template_language AND ${marketing}) END)`;
}
