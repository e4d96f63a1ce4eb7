import "server-only";
import { withReadDb } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { csvLine } from "@/lib/http/csv";
import { contactRowsAfter, labelsOfContacts } from "./repo";
import { requireTeamLabels } from "@/lib/labels/service";

/** Columns of the contacts CSV; the import reads every one of them back (import-csv.ts aliases). */
export const CONTACTS_CSV_HEADER = [
  "number",
  "name",
  "customer_id",
  "labels",
  "marketing_opt_out",
  "marketing_opt_out_at",
  "marketing_opt_out_reason",
] as const;

const PAGE = 2000;

/**
 * GET /api/v1/contacts?format=csv: the team's contacts (with the list's search and label filter)
 * as CSV, page by page in id order, never whole in memory. Labels are joined by `|` as the import
 * reads them; marketing_opt_out is "sí"/"no".
 */
export async function contactsCsv({
  ctx,
  input,
}: {
  ctx: AuthContext;
  input: { search?: string; label_id?: number[] };
}): Promise<ReadableStream<Uint8Array>> {
  const labelIds = await requireTeamLabels(ctx.teamId, input.label_id);
  const enc = new TextEncoder();
  let after = 0;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(enc.encode(`\uFEFF${CONTACTS_CSV_HEADER.join(",")}\r\n`));
      }
      // Each page and its labels read from the replica when there is one (an export may be a moment behind).
      const rows = await withReadDb(ctx.teamId, (db) =>
        contactRowsAfter(db, { teamId: ctx.teamId, afterId: after, limit: PAGE, search: input.search, labelIds }),
      );
      if (!rows.length) return controller.close();
      const labels = new Map<number, string[]>();
      const ids = rows.map((r) => r.id);
      for (const l of await withReadDb(ctx.teamId, (db) => labelsOfContacts(db, { teamId: ctx.teamId, contactIds: ids })))
        labels.set(l.contactId, [...(labels.get(l.contactId) ?? []), l.title]);
      const text = rows
        .map((r) =>
          csvLine([
            r.customerNumber,
            r.name,
            r.customerId,
            (labels.get(r.id) ?? []).join("|"),
            r.marketingOptedOutAt ? "sí" : "no",
            r.marketingOptedOutAt?.toISOString() ?? null,
            r.marketingOptOutReason,
          ]),
        )
        .join("\r\n");
      controller.enqueue(enc.encode(`${text}\r\n`));
      after = rows[rows.length - 1].id;
      if (rows.length < PAGE) controller.close();
    },
  });
}
