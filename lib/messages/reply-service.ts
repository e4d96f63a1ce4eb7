import "server-only";
import { randomUUID } from "node:crypto";
import { getDb } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError } from "@/lib/http/errors";
import { claimOf, findReplay, replayOf, type Idempotency } from "@/lib/idempotency/service";
import { requireSendingNumber } from "@/lib/numbers/service";
import { sanitizeNumber } from "@/lib/phone";
import { findReplyContact } from "./reply-repo";
import type { ReplyMessage, SendReplyInput } from "./reply-schemas";
import { resolveReplyMedia } from "./send-media";
import { outboundRow } from "./queued-row";
import { insertReplyOnce } from "./outbound-repo";
import { SEND_QUEUED, type SendResult } from "./send-service";
import type { SendTemplateResponse } from "./send-schemas";

export const WINDOW_CLOSED = "La ventana de 24 horas para responder a este cliente está cerrada: envíe una plantilla.";
export const CONTEXT_NOT_FOUND = "El mensaje de context_update_id no existe en esta conversación.";

/** What the worker needs besides the 2.5 payload (kept in send_params). */
export type ReplySendParams = { preview_url?: boolean };

/**
 * The stored 2.5 payload of a reply (what the history and the conversation viewer show) and its
 * media path: an attachment shows the url the history serves for the uploaded file.
 */
async function storedPayload(
  teamId: number,
  m: ReplyMessage,
): Promise<{ payload: Record<string, unknown> | unknown[]; mediaPath: string | null; params: ReplySendParams | null }> {
  switch (m.type) {
    case "text":
      return { payload: { text: m.payload.text }, mediaPath: null, params: { preview_url: m.payload.preview_url } };
    case "image":
    case "video":
    case "audio":
    case "document":
    case "sticker": {
      const file = await resolveReplyMedia(teamId, m.type, m.payload.media_path);
      const base = { url: file.url, contentType: file.contentType };
      const p = m.payload as { caption?: string | null; filename?: string | null };
      const payload =
        m.type === "audio"
          ? base
          : m.type === "sticker"
            ? { ...base, sha256: file.sha256, animated: false }
            : m.type === "image"
              ? { caption: p.caption ?? null, ...base, sha256: file.sha256 }
              : { caption: p.caption ?? null, ...base, sha256: file.sha256, filename: p.filename ?? null };
      return { payload, mediaPath: file.path, params: null };
    }
    case "location":
      return {
        payload: {
          latitude: String(m.payload.latitude),
          longitude: String(m.payload.longitude),
          name: m.payload.name,
          address: m.payload.address,
        },
        mediaPath: null,
        params: null,
      };
    case "contacts":
      return { payload: m.payload, mediaPath: null, params: null };
    case "quick_reply":
    case "list":
      return { payload: m.payload, mediaPath: null, params: null };
  }
}

/**
 * A free-form message to a customer (POST /api/v1/messages/{channel}/send), allowed only within
 * 24 hours of the customer's last message on that number. Checked in order: number, customer and
 * window, context message, attachment; then queued exactly like a template send (a QUEUED row is
 * the delivery job), with the same idempotency. Common case: two round trips, one read (customer,
 * window, assignee, context message, reply_assigns) and one write statement (key, message,
 * assignment); the number comes from the process's cache (send-catalog.ts).
 */
export async function sendReply({
  ctx,
  input,
  idempotency,
}: {
  ctx: AuthContext;
  input: SendReplyInput;
  idempotency: Idempotency | null;
}): Promise<SendResult> {
  let checked;
  try {
    checked = await checkReply(ctx, input);
  } catch (err) {
    // A retry of a request that already succeeded gets its answer, whatever changed since (its
    // window closed, the number switched off…): its key is looked up when the request no longer
    // passes. One that still passes finds it in the write's own statement below.
    if (idempotency && err instanceof ApiError) {
      const earlier = await findReplay(ctx.teamId, idempotency);
      if (earlier) return { ...earlier, replayed: true };
    }
    throw err;
  }
  const { number, contact, replyTo, payload, mediaPath, params } = checked;

  const updateId = randomUUID();
  const body: SendTemplateResponse = { message: SEND_QUEUED, data: { update_id: updateId } };
  // An agent's reply takes an unassigned conversation (team setting reply_assigns); a token's does
  // not. The conditional UPDATE in the write decides; the read only leaves it out when assigned.
  const assignee = ctx.actor.kind === "agent" && contact.replyAssigns && contact.assigneeAgentId === null ? ctx.actor.agentId : null;
  const row = outboundRow(ctx, {
    waNumberId: number.id,
    contact,
    updateId,
    type: input.type,
    payload,
    sendParams: (params as Record<string, unknown> | null) ?? null,
    mediaPath,
    replyToMessageId: replyTo,
  });
  const response = { status: 200, body };
  // The key, the message and the assignment in one statement, its own transaction: they commit together.
  const claim = idempotency ? claimOf(idempotency, response) : undefined;
  for (let attempt = 1; ; attempt++) {
    const out = await insertReplyOnce(await getDb(), { row, claim, assign: assignee === null ? undefined : { agentId: assignee } });
    if (out.stored) return { ...replayOf(out.stored, idempotency!), replayed: true };
    if (out.inserted) return { ...response, replayed: false };
    // The same key committed by a concurrent request after the statement's snapshot: the next one reads it.
    if (attempt >= 3) throw new Error("reply: the message was neither written nor its key found");
  }
}

/** Everything a reply checks before it writes, in the contract's order: number, customer and window, context message, attachment. */
async function checkReply(ctx: AuthContext, input: SendReplyInput) {
  const number = await requireSendingNumber(ctx, input.wa_number);
  const digits = sanitizeNumber(input.customer_source);
  const contact = await findReplyContact(await getDb(), {
    teamId: ctx.teamId,
    waNumberId: number.id,
    digits: /^\d+$/.test(digits) ? digits : null,
    customerId: input.customer_source,
    contextUpdateId: input.context_update_id ?? null,
  });
  // A customer who never wrote on this number has no window at all.
  if (!contact?.windowOpen) throw ApiError.invalid("customer_source", WINDOW_CLOSED);
  // The context message is looked for only in this customer's conversation on this number.
  const replyTo = input.context_update_id ? contact.replyToMessageId : null;
  if (input.context_update_id && replyTo === null) throw ApiError.invalid("context_update_id", CONTEXT_NOT_FOUND);
  const { payload, mediaPath, params } = await storedPayload(ctx.teamId, input);
  return { number, contact, replyTo, payload, mediaPath, params };
}
