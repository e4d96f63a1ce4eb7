import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type DbOrTx } from "@/db/client";
import type { Audience, AudienceContact } from "./schemas";

/** An int[] of label ids shipped as one jsonb parameter. */
const ids = (list: number[]) => sql`ARRAY(SELECT x::int FROM jsonb_array_elements_text(${JSON.stringify(list)}::jsonb) x)`;

/**
 * The ids of the team's contacts in `audience`, as a subquery. It starts from the label
 * assignments of the any/all labels (contact_labels_label_idx), never from every contact: per
 * contact, at least one `labels_any` (when any are given) and all of `labels_all` (pairs are
 * unique, so a count equal to the list's length means all), then minus any contact holding a
 * `labels_exclude` label. Contacts without a number are not in an audience (nothing can be sent).
 */
function audienceWhere(teamId: number, a: Audience): SQL {
  const wanted = [...new Set([...a.labels_any, ...a.labels_all])];
  const anyOk = a.labels_any.length ? sql`bool_or(cl.label_id = ANY(${ids(a.labels_any)}))` : sql`true`;
  const allOk = a.labels_all.length
    ? sql`count(*) FILTER (WHERE cl.label_id = ANY(${ids(a.labels_all)})) = ${a.labels_all.length}`
    : sql`true`;
  const excluded = a.labels_exclude.length
    ? sql`AND NOT EXISTS (SELECT 1 FROM contact_labels x WHERE x.team_id = ${teamId} AND x.contact_id = c.id AND x.label_id = ANY(${ids(a.labels_exclude)}))`
    : sql``;
  return sql`c.team_id = ${teamId} AND c.customer_number IS NOT NULL
    AND c.id IN (SELECT cl.contact_id FROM contact_labels cl
                 WHERE cl.team_id = ${teamId} AND cl.label_id = ANY(${ids(wanted)})
                 GROUP BY cl.contact_id HAVING ${anyOk} AND ${allOk})
    ${excluded}`;
}

/** The audience's size, and how many of it opted out of marketing (a MARKETING broadcast leaves them out). */
export async function countAudience(
  db: DbOrTx,
  { teamId, audience }: { teamId: number; audience: Audience },
): Promise<{ size: number; optedOut: number }> {
  const [row] = rowsOf<{ n: number | string; o: number | string }>(
    await db.execute(sql`SELECT count(*) AS n, count(*) FILTER (WHERE c.marketing_opted_out_at IS NOT NULL) AS o
      FROM contacts c WHERE ${audienceWhere(teamId, audience)}`),
  );
  return { size: Number(row?.n ?? 0), optedOut: Number(row?.o ?? 0) };
}

/**
 * One page of the audience's contacts in id order, after `afterId` (keyset): what a broadcast
 * enqueues, read inside its own transaction (`db`) so the recipients are the ones it commits.
 * The label ids must already be checked as the team's (`checkAudienceLabels`).
 */
export async function selectAudienceContacts(
  db: DbOrTx,
  { teamId, audience, afterId = 0, limit = 5000 }: { teamId: number; audience: Audience; afterId?: number; limit?: number },
): Promise<AudienceContact[]> {
  const rows = rowsOf<{ id: number | string; name: string; customer_number: string; customer_id: string | null; o: boolean }>(
    await db.execute(sql`SELECT c.id, c.name, c.customer_number, c.customer_id, c.marketing_opted_out_at IS NOT NULL AS o FROM contacts c
      WHERE ${audienceWhere(teamId, audience)} AND c.id > ${afterId}
      ORDER BY c.id LIMIT ${limit}`),
  );
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    customer_number: r.customer_number,
    customer_id: r.customer_id,
    marketing_opted_out: r.o === true,
  }));
}

/** The ids among `labelIds` that are not labels of the team. */
export async function foreignLabelIds(db: DbOrTx, { teamId, labelIds }: { teamId: number; labelIds: number[] }): Promise<Set<number>> {
  if (!labelIds.length) return new Set();
  const rows = rowsOf<{ id: number | string }>(
    await db.execute(sql`SELECT x AS id FROM unnest(${ids(labelIds)}) x
      WHERE NOT EXISTS (SELECT 1 FROM labels l WHERE l.team_id = ${teamId} AND l.id = x)`),
  );
  return new Set(rows.map((r) => Number(r.id)));
}
