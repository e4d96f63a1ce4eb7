import "server-only";
import { withReadDb } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { offsetOf, paginationMeta } from "@/lib/http/pagination";
import { csvCell } from "@/lib/http/csv";
import { statusLabeler } from "@/lib/i18n/status-labels";
import { firstReason } from "./recipient";
import { listRecipientRows, recipientRowsAfter, timelineRows, type RecipientRow } from "./recipients-repo";
import { RECIPIENTS_CSV_HEADER, type RecipientDto, type RecipientsQuery, type TimelineQuery } from "./schemas";
import { requireBroadcast } from "./service";

const iso = (d: Date | string) => new Date(d).toISOString();

function toRecipient(r: RecipientRow): RecipientDto {
  const error =
    r.status === "REJECTED"
      ? { code: null, title: firstReason(r.rejected_errors ?? {}) }
      : r.error
        ? { code: typeof r.error.code === "number" ? r.error.code : null, title: String(r.error.title ?? "") }
        : null;
  return {
    contact: { id: r.contact_id, name: r.name ?? "", customer_number: r.customer_number },
    update_id: r.update_id,
    status: r.status as RecipientDto["status"],
    error,
    replied: r.replied,
    updated_at: iso(r.updated_at),
  };
}

/** GET /api/v1/broadcasts/{id}/recipients: its messages (id order), then its rejected contacts. */
export async function listRecipients({ ctx, input }: { ctx: AuthContext; input: RecipientsQuery & { id: number } }) {
  await requireBroadcast(ctx.teamId, input.id);
  // The list, the CSV and the timeline may be a moment behind: they read from the replica when there is one.
  const offset = offsetOf(input.page, input.per_page);
  const { rows, total } = await withReadDb(ctx.teamId, (db) =>
    listRecipientRows(db, { teamId: ctx.teamId, broadcastId: input.id, status: input.status, limit: input.per_page, offset }),
  );
  return { data: rows.map(toRecipient), pagination: paginationMeta(total, input.per_page, input.page) };
}

export { csvCell };

const CSV_PAGE = 2000;

/** The whole recipients list as CSV, written page by page (keyset), never whole in memory. */
export async function recipientsCsv({
  ctx,
  input,
}: {
  ctx: AuthContext;
  input: { id: number; status?: RecipientsQuery["status"]; lang?: "es" | "en" };
}): Promise<ReadableStream<Uint8Array>> {
  const label = statusLabeler(input.lang ?? "es");
  await requireBroadcast(ctx.teamId, input.id);
  const enc = new TextEncoder();
  let after: { kind: "m" | "r"; id: number } | undefined;
  const page = (from: { kind: "m" | "r"; id: number } | undefined) =>
    withReadDb(ctx.teamId, (db) =>
      recipientRowsAfter(db, { teamId: ctx.teamId, broadcastId: input.id, status: input.status, after: from, limit: CSV_PAGE }),
    );
  let first: RecipientRow[] | null = await page(undefined);
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        // A BOM so spreadsheet programs read UTF-8 names right.
        controller.enqueue(enc.encode(`\uFEFF${RECIPIENTS_CSV_HEADER.join(",")}\r\n`));
      }
      const rows = first ?? (after ? await page(after) : []);
      first = null;
      if (!rows.length) return controller.close();
      const text = rows
        .map((row) => {
          const r = toRecipient(row);
          return [
            r.contact.customer_number,
            r.contact.name,
            r.status,
            label(r.status),
            r.error?.code ?? null,
            r.error?.title ?? null,
            r.replied,
            r.update_id,
          ]
            .map(csvCell)
            .join(",");
        })
        .join("\r\n");
      controller.enqueue(enc.encode(`${text}\r\n`));
      const last = rows[rows.length - 1];
      if (rows.length < CSV_PAGE && last.kind === "r") return controller.close();
      after = { kind: last.kind, id: last.id };
      // A short page of messages is followed by the rejections (the keyset moves on to them).
      if (rows.length < CSV_PAGE && last.kind === "m") after = { kind: "r", id: 0 };
    },
  });
}

/** GET /api/v1/broadcasts/{id}/timeline: sends, deliveries, reads and failures per minute or hour. */
export async function broadcastTimeline({ ctx, input }: { ctx: AuthContext; input: TimelineQuery & { id: number } }) {
  await requireBroadcast(ctx.teamId, input.id);
  const rows = await withReadDb(ctx.teamId, (db) => timelineRows(db, { teamId: ctx.teamId, broadcastId: input.id, bucket: input.bucket }));
  return rows.map((r) => ({
    at: iso(r.at),
    sent: Number(r.sent),
    delivered: Number(r.delivered),
    read: Number(r.read),
    failed: Number(r.failed),
  }));
}
