import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type DbOrTx } from "@/db/client";
import { MAX_LABELS_PER_CONTACT } from "@/lib/limits";

/** One valid row of the file, ready to write. Numbers and customer_ids are unique within a batch. */
export type ImportRow = { line: number; number: string; customerId: string | null; name: string; labelIds: number[]; optOut?: boolean };

export type BatchOutcome = {
  created: number;
  updated: number;
  /** Rows that could not be written (a customer_id held by another contact). */
  rejected: { line: number }[];
  /** Per row, the label ids left out by the 5-label cap. */
  capped: { line: number; labelIds: number[] }[];
};

type Found = { id: number | string; customer_number: string | null; customer_id: string | null };

const json = (v: unknown) => JSON.stringify(v);
const textArray = (list: string[]) => sql`ARRAY(SELECT jsonb_array_elements_text(${json(list)}::jsonb))`;

/** The team's labels as (id, title), for matching titles of the file. */
export async function teamLabelTitles(db: DbOrTx, teamId: number): Promise<{ id: number; title: string }[]> {
  const rows = rowsOf<{ id: number | string; title: string }>(
    await db.execute(sql`SELECT id, title FROM labels WHERE team_id = ${teamId} ORDER BY id`),
  );
  return rows.map((r) => ({ id: Number(r.id), title: r.title }));
}

/**
 * Writes one batch of the import in the caller's transaction with a handful of set-based
 * statements, whatever the batch size:
 * 1. the team's contacts already holding the batch's numbers, row-locked in id order (so the
 *    label cap below is checked against assignments nobody else is changing, as the labels
 *    endpoints do in db/functions/contact_labels_change.sql);
 * 2. the contacts holding the batch's customer_ids: a customer_id held by a contact with another
 *    number rejects the row (it is that other customer's id);
 * 3. one INSERT of the new contacts (ON CONFLICT DO NOTHING; a number inserted meanwhile by a
 *    concurrent writer is read back and updated like any existing one);
 * 4. one UPDATE of the existing ones: a non-empty name replaces the stored one, a customer_id is
 *    set (re-import updates, never duplicates);
 * 5. the labels: added, never removed (like POST /contacts/{id}/labels), up to 5 per contact;
 *    labels are key-share locked so a concurrent delete waits instead of failing the insert.
 */
export async function writeImportBatch(db: DbOrTx, { teamId, rows }: { teamId: number; rows: ImportRow[] }): Promise<BatchOutcome> {
  const out: BatchOutcome = { created: 0, updated: 0, rejected: [], capped: [] };
  if (!rows.length) return out;
  const numbers = rows.map((r) => r.number);
  const lockByNumber = async (list: string[]) =>
    rowsOf<Found>(
      await db.execute(sql`SELECT id, customer_number, customer_id FROM contacts
        WHERE team_id = ${teamId} AND customer_number = ANY(${textArray(list)}) ORDER BY id FOR UPDATE`),
    );
  const byNumber = new Map(
    (await lockByNumber(numbers)).map((r) => [r.customer_number!, { id: Number(r.id), customerId: r.customer_id }] as const),
  );

  const cids = rows.map((r) => r.customerId).filter((c): c is string => !!c);
  const holders = new Map<string, string | null>();
  if (cids.length) {
    const found = rowsOf<Found>(
      await db.execute(sql`SELECT id, customer_number, customer_id FROM contacts
        WHERE team_id = ${teamId} AND customer_id = ANY(${textArray(cids)})`),
    );
    for (const f of found) holders.set(f.customer_id!, f.customer_number);
  }
  const takenElsewhere = (r: ImportRow) => !!r.customerId && holders.has(r.customerId) && holders.get(r.customerId) !== r.number;

  const kept: ImportRow[] = [];
  for (const r of rows) {
    if (takenElsewhere(r)) out.rejected.push({ line: r.line });
    else kept.push(r);
  }

  // 3. New contacts, in number order (concurrent writers wait on each other in one order).
  const fresh = kept.filter((r) => !byNumber.has(r.number)).sort((a, b) => (a.number < b.number ? -1 : 1));
  const ids = new Map<string, number>();
  if (fresh.length) {
    const inserted = rowsOf<Found>(
      await db.execute(sql`INSERT INTO contacts (team_id, customer_number, customer_id, name)
        SELECT ${teamId}::int, v.n, v.c, v.name
        FROM jsonb_to_recordset(${json(fresh.map((r) => ({ n: r.number, c: r.customerId, name: r.name })))}::jsonb) AS v(n text, c text, name text)
        ON CONFLICT DO NOTHING
        RETURNING id, customer_number, customer_id`),
    );
    for (const r of inserted) ids.set(r.customer_number!, Number(r.id));
    out.created = inserted.length;
    const lost = fresh.filter((r) => !ids.has(r.number));
    if (lost.length) {
      // Inserted meanwhile by another transaction (then updated below), or its customer_id was.
      for (const r of await lockByNumber(lost.map((l) => l.number)))
        byNumber.set(r.customer_number!, { id: Number(r.id), customerId: r.customer_id });
      for (const r of lost) if (!byNumber.has(r.number)) out.rejected.push({ line: r.line });
    }
  }

  // 4. Existing contacts: only rows that change something are rewritten.
  const existing = kept.filter((r) => byNumber.has(r.number));
  if (existing.length) {
    await db.execute(sql`UPDATE contacts c
      SET name = CASE WHEN v.name <> '' THEN v.name ELSE c.name END, customer_id = coalesce(v.c, c.customer_id), updated_at = now()
      FROM jsonb_to_recordset(${json(existing.map((r) => ({ id: byNumber.get(r.number)!.id, c: r.customerId, name: r.name })))}::jsonb)
        AS v(id int, c text, name text)
      WHERE c.team_id = ${teamId} AND c.id = v.id
        AND ((v.name <> '' AND v.name IS DISTINCT FROM c.name) OR (v.c IS NOT NULL AND v.c IS DISTINCT FROM c.customer_id))`);
    for (const r of existing) ids.set(r.number, byNumber.get(r.number)!.id);
    out.updated = existing.length;
  }

  // 5. Marketing opt-outs given by the file (first date and reason kept when already opted out).
  const optOutIds = kept.filter((r) => r.optOut && ids.has(r.number)).map((r) => ids.get(r.number)!);
  if (optOutIds.length) {
    await db.execute(sql`UPDATE contacts SET marketing_opted_out_at = now(), marketing_opt_out_reason = 'import', updated_at = now()
      WHERE team_id = ${teamId} AND marketing_opted_out_at IS NULL
        AND id = ANY(ARRAY(SELECT jsonb_array_elements_text(${json(optOutIds)}::jsonb)::int))`);
  }

  // 6. Labels.
  const labelled = kept.filter((r) => r.labelIds.length && ids.has(r.number));
  if (labelled.length) {
    const wanted = [...new Set(labelled.flatMap((r) => r.labelIds))];
    const live = new Set(
      rowsOf<{ id: number | string }>(
        await db.execute(sql`SELECT id FROM labels WHERE team_id = ${teamId}
          AND id = ANY(ARRAY(SELECT jsonb_array_elements_text(${json(wanted)}::jsonb)::int)) ORDER BY id FOR KEY SHARE`),
      ).map((r) => Number(r.id)),
    );
    const contactIds = labelled.map((r) => ids.get(r.number)!);
    const assigned = new Map<number, Set<number>>();
    for (const a of rowsOf<{ contact_id: number | string; label_id: number | string }>(
      await db.execute(sql`SELECT contact_id, label_id FROM contact_labels
        WHERE team_id = ${teamId} AND contact_id = ANY(ARRAY(SELECT jsonb_array_elements_text(${json(contactIds)}::jsonb)::int))`),
    )) {
      const set = assigned.get(Number(a.contact_id)) ?? new Set<number>();
      set.add(Number(a.label_id));
      assigned.set(Number(a.contact_id), set);
    }
    const pairs: { c: number; l: number }[] = [];
    for (const r of labelled) {
      const contactId = ids.get(r.number)!;
      const has = assigned.get(contactId) ?? new Set<number>();
      const left: number[] = [];
      for (const l of r.labelIds) {
        if (!live.has(l) || has.has(l)) continue;
        if (has.size >= MAX_LABELS_PER_CONTACT) left.push(l);
        else {
          has.add(l);
          pairs.push({ c: contactId, l });
        }
      }
      if (left.length) out.capped.push({ line: r.line, labelIds: left });
    }
    if (pairs.length) {
      await db.execute(sql`INSERT INTO contact_labels (team_id, contact_id, label_id)
        SELECT ${teamId}::int, v.c, v.l FROM jsonb_to_recordset(${json(pairs)}::jsonb) AS v(c int, l int)
        ON CONFLICT DO NOTHING`);
    }
  }
  return out;
}
