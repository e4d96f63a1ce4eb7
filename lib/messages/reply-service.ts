import "server-only";
import { randomUUID } from "node:crypto";
import { getDb, type DbOrTx } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError } from "@/lib/http/errors";
import { findReplay, writeOnce, type Idempotency } from "@/lib/idempotency/service";
import { requireSendingNumber } from "@/lib/numbers/service";
import { assignOnReply, replyAssignee } from "@/lib/conversations/service";
import { sanitizeNumber } from "@/lib/phone";
import { findConversationMessageId, findReplyContact } from "./reply-repo";
import type { ReplyMessage, SendReplyInput } from "./reply-schemas";
import { resolveReplyMedia } from "./send-media";
import { outboundRow } from "./queued-row";
import { insertOutbound } from "./outbound-repo";
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
 * the delivery job), with the same idempotency.
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
  const earlier = await findReplay(ctx.teamId, idempotency);
  if (earlier) return { ...earlier, replayed: true };

  const number = await requireSendingNumber(ctx, input.wa_number);
  const digits = sanitizeNumber(input.customer_source);
  const contact = await findReplyContact(await getDb(), {
    teamId: ctx.teamId,
    waNumberId: number.id,
    digits: /^\d+$/.test(digits) ? digits : null,
    customerId: input.customer_source,
  });
  // A customer who never wrote on this number has no window at all.
  if (!contact?.windowOpen) throw ApiError.invalid("customer_source", WINDOW_CLOSED);
  let replyTo: number | null = null;
  if (input.context_update_id) {
    replyTo =
      (await findConversationMessageId(await getDb(), {
        teamId: ctx.teamId,
        waNumberId: number.id,
        contactId: contact.id,
        updateId: input.context_update_id,
      })) ?? null;
    if (replyTo === null) throw ApiError.invalid("context_update_id", CONTEXT_NOT_FOUND);
  }
  const { payload, mediaPath, params } = await storedPayload(ctx.teamId, input);

  const updateId = randomUUID();
  const body: SendTemplateResponse = { message: SEND_QUEUED, data: { update_id: updateId } };
  // An agent's reply takes an unassigned conversation (team setting reply_assigns); a token's does
  // not. The conditional UPDATE decides; the read here only spares the settings read when assigned.
  const assignee = contact.assigneeAgentId === null ? await replyAssignee(ctx) : null;
  const write = async (tx: DbOrTx) => {
    await insertOutbound(tx, [
      outboundRow(ctx, {
        waNumberId: number.id,
        contact,
        updateId,
        type: input.type,
        payload,
        sendParams: (params as Record<string, unknown> | null) ?? null,
        mediaPath,
        replyToMessageId: replyTo,
      }),
    ]);
    if (assignee !== null) await assignOnReply(tx, { teamId: ctx.teamId, waNumberId: number.id, contactId: contact.id, agentId: assignee });
  };
  // Assigning writes a second row: the message and the assignment commit together.
  return writeOnce(ctx.teamId, idempotency, { status: 200, body }, write, { atomic: assignee !== null });
}
