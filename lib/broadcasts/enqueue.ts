import "server-only";
import { randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { getDb, transaction } from "@/db/client";
import { selectAudienceContacts } from "@/lib/audiences/service";
import { MARKETING_OPTED_OUT, isMarketing } from "@/lib/contacts/opt-out";
import type { AuthContext } from "@/lib/auth/context";
import type { ResolvedMedia } from "@/lib/messages/send-media";
import { queuedMessage } from "@/lib/messages/send-service";
import { buildTemplatePayload, type SentValues } from "@/lib/messages/template-payload";
import { payloadSlots } from "@/lib/messages/payload-slots";
import type { TemplateRow } from "@/lib/templates/repo";
import { toTemplateDto } from "@/lib/templates/service";
import { mediaUrl } from "@/lib/media/paths";
import { PROGRESS_EVERY_MS, announce } from "./announce";
import { audienceEnqueued, enqueueGoesOn, messagesDue } from "./lifecycle";
import { fillRecipient, usesColumns, type FilledParams } from "./recipient";
import { insertOutboundBatch, type BatchRecipient, type PayloadSlots } from "@/lib/messages/outbound-repo";
import { insertRejections, interruptedEnqueues, lockBroadcast, recordBatch, templateOfBroadcast, type BroadcastRow } from "./repo";

/**
 * Contacts per transaction. Each batch is one transaction of a few statements (its messages in one
 * INSERT … SELECT from a jsonb parameter of their own values (lib/messages/outbound-repo.ts insertOutboundBatch), its rejections, the counters), committed before the
 * next: the worker starts sending the first batch while later ones are written, a pause or cancel
 * waits for at most one batch, and counts.recipients grows as batches land.
 */
export const ENQUEUE_BATCH = 5000;

type Target = { number: { id: number }; template: TemplateRow; media: ResolvedMedia };

const toMap = (params: { key: string; value: string }[]) => {
  const out: Record<string, string> = Object.create(null);
  for (const p of params) out[p.key] = p.value;
  return out;
};

/** The messages' next_attempt_at, as the lifecycle says (lifecycle.ts messagesDue). */
function dueAt(row: BroadcastRow): SQL {
  const due = messagesDue(row);
  if (due === "parked") return sql`NULL::timestamptz`;
  if (due === "now") return sql`now()`;
  return sql`${due.toISOString()}::timestamptz`;
}

/**
 * Enqueues the broadcast's audience from its cursor on, batch by batch, each recipient through the
 * checks of a single send (recipient.ts): one QUEUED message per accepted contact, one rejection
 * with its reasons per refused one. Stops early when the broadcast was cancelled meanwhile.
 * Returns the totals of this run.
 */
export async function enqueueAudience(ctx: AuthContext, broadcast: BroadcastRow, target: Target, batchSize = ENQUEUE_BATCH) {
  const dto = toTemplateDto(target.template);
  const send = broadcast.send;
  const shared = {
    wa_number: "",
    template_name: target.template.name,
    media_path: send.media_path,
    response_handler: send.response_handler,
    campaign_id: send.campaign_id,
    bot_id: send.bot_id,
    sent_group: broadcast.sentGroup,
  };
  const mediaUrl = target.media?.url ?? null;
  const perContact = usesColumns(send);
  const valuesOf = (p: FilledParams): SentValues => ({
    header: toMap(p.header_param ? [p.header_param] : []),
    body: toMap(p.body_params),
    mediaUrl,
    buttons: Object.fromEntries((p.button_params ?? []).map((b) => [b.index, b.value])),
  });
  const payloadOf = (p: FilledParams) => buildTemplatePayload(dto, valuesOf(p));
  // The columns every message shares, built as every outbound row is (lib/messages/queued-row.ts), once.
  const base = queuedMessage(
    ctx,
    { ...target, shared },
    { id: 0, customerNumber: null, customerId: null },
    { updateId: "", payload: perContact ? payloadOf({ header_param: null, body_params: [] }) : payloadOf(send), params: send },
  );
  // Values that use a contact's columns differ per recipient: only its filled texts travel.
  const { slots, fill } = payloadSlots(dto, !!send.button_params?.length);
  const sharedSlots: PayloadSlots = { headerAt: null, bodyAt: null, buttonsAt: null };

  // Opted-out contacts stay in the audience (its size says how many) and are rejected with their reason.
  const marketing = isMarketing(target.template.category);
  let queued = 0;
  let rejected = 0;
  let lastAnnounce = Date.now();
  for (;;) {
    const step = await transaction(async (tx) => {
      const row = await lockBroadcast(tx, { teamId: broadcast.teamId, id: broadcast.id });
      if (!row || !enqueueGoesOn(row.status)) return { more: false };
      // From the committed cursor, under the row lock: two runs (a resumed one beside a slow one)
      // take turns and never enqueue a contact twice.
      const contacts = await selectAudienceContacts(tx, {
        teamId: broadcast.teamId,
        audience: row.audience,
        afterId: row.enqueueCursor,
        limit: batchSize,
      });
      if (!contacts.length) return { more: false };
      const rows: BatchRecipient[] = [];
      const rejections = [];
      for (const contact of contacts) {
        if (marketing && contact.marketing_opted_out) {
          rejections.push({
            teamId: row.teamId,
            broadcastId: row.id,
            contactId: contact.id,
            errors: { destination: [MARKETING_OPTED_OUT] },
          });
          continue;
        }
        const checked = fillRecipient(contact, send);
        if ("errors" in checked) {
          rejections.push({ teamId: row.teamId, broadcastId: row.id, contactId: contact.id, errors: checked.errors });
          continue;
        }
        const p = checked.params;
        rows.push({
          c: contact.id,
          u: randomUUID(),
          n: contact.customer_number,
          i: contact.customer_id,
          ...(perContact ? fill(valuesOf(p)) : { h: null, b: null, k: null }),
          // As a single send's send_params: button_params only when given (the worker sends them).
          s: { header_param: p.header_param, body_params: p.body_params, ...(p.button_params ? { button_params: p.button_params } : {}) },
        });
      }
      await insertOutboundBatch(tx, {
        shared: { ...base, broadcastId: row.id, nextAttemptAt: dueAt(row) },
        slots: perContact ? slots : sharedSlots,
        rows,
      });
      await insertRejections(tx, rejections);
      const last = contacts[contacts.length - 1].id;
      await recordBatch(tx, { teamId: row.teamId, id: row.id, queued: rows.length, rejected: rejections.length, cursor: last });
      queued += rows.length;
      rejected += rejections.length;
      // Progress while a long enqueue runs, no more than once a second.
      const more = contacts.length === batchSize;
      if (more && Date.now() - lastAnnounce >= PROGRESS_EVERY_MS) {
        lastAnnounce = Date.now();
        await announce(tx, {
          ...row,
          recipients: row.recipients + rows.length + rejections.length,
          rejected: row.rejected + rejections.length,
        });
      }
      return { more };
    });
    if (!step.more) break;
  }
  await audienceEnqueued(broadcast.teamId, broadcast.id);
  return { queued, rejected };
}

/** How long an enqueue may go without a new message before the worker takes it over. */
export const RESUME_IDLE_MS = 60_000;

/**
 * Finishes the enqueue of broadcasts whose creating request died midway (a crash, a deploy): from
 * their committed cursor on, with the values the broadcast stored and as its creator (an agent, or
 * the API token's SYSTEM sender). Run by the delivery worker beside its sweep.
 */
export async function resumeInterrupted(teamIds?: number[], idleMs = RESUME_IDLE_MS): Promise<number> {
  const db = await getDb();
  const rows = await interruptedEnqueues(db, { idleMs, limit: 5, teamIds });
  for (const row of rows) {
    const template = await templateOfBroadcast(db, row);
    if (!template) continue;
    const ctx: AuthContext = {
      teamId: row.teamId,
      actor:
        row.createdByAgentId != null
          ? { kind: "agent", agentId: row.createdByAgentId, agentName: row.createdByAgentName ?? "", sessionId: 0 }
          : { kind: "token", tokenId: 0 },
    };
    const path = row.send.media_path;
    const media = path ? { path, url: /^https?:\/\//i.test(path) ? path : mediaUrl(path) } : null;
    await enqueueAudience(ctx, row, { number: { id: row.waNumberId }, template, media });
  }
  return rows.length;
}
