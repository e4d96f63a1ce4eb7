import "server-only";
import { randomUUID } from "node:crypto";
import { getDb, type DbOrTx } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError } from "@/lib/http/errors";
import { claimOf, findReplay, replayOf, type Idempotency, type StoredResponse } from "@/lib/idempotency/service";
import { requireSendingNumber } from "@/lib/numbers/service";
import { assertSendable, findTemplateForSend, toTemplateDto } from "@/lib/templates/service";
import type { TemplateRow } from "@/lib/templates/repo";
import { resolveMedia, type ResolvedMedia } from "./send-media";
import { resolveParams } from "./send-params";
import { isMarketing, MARKETING_OPTED_OUT } from "@/lib/contacts/opt-out";
import { botExists, campaignExists } from "./send-repo";
import { outboundRow } from "./queued-row";
import { insertOutboundToContact, type OutboundRow } from "./outbound-repo";
import { botNotFound, campaignNotFound, type SendTemplateInput, type SendTemplateResponse } from "./send-schemas";
import { buildTemplatePayload } from "./template-payload";

export const SEND_QUEUED = "Mensaje en cola para su envío.";

export type SendShared = Pick<
  SendTemplateInput,
  "wa_number" | "template_name" | "media_path" | "response_handler" | "campaign_id" | "bot_id" | "sent_group"
>;
type Target = { number: { id: number }; template: TemplateRow; media: ResolvedMedia; shared: SendShared };

/**
 * The fields every recipient shares, checked in the contract's order: number, template, bot,
 * campaign (422 each). Parameters and media come after, as they depend on the template.
 */
export async function resolveSendTarget(ctx: AuthContext, input: SendShared) {
  const number = await requireSendingNumber(ctx, input.wa_number);
  const db = await getDb();
  // Independent lookups run together; their errors are still reported in a fixed order.
  const [found, botOk, campaignOk] = await Promise.all([
    findTemplateForSend(ctx.teamId, number.id, input.template_name),
    input.bot_id == null || botExists(db, { teamId: ctx.teamId, id: input.bot_id }),
    input.campaign_id == null || campaignExists(db, { teamId: ctx.teamId, id: input.campaign_id }),
  ]);
  const template = assertSendable(found, input.template_name);
  if (!botOk) throw ApiError.invalid("bot_id", botNotFound(input.bot_id!));
  if (!campaignOk) throw ApiError.invalid("campaign_id", campaignNotFound(input.campaign_id!));
  return { number, template };
}

type SentParams = Pick<SendTemplateInput, "header_param" | "body_params"> & { button_params?: SendTemplateInput["button_params"] };

/** A template recipient's stored send_params (what the worker sends): button_params only when given. */
export function sendParamsOf(params: SentParams) {
  return {
    header_param: params.header_param ?? null,
    body_params: params.body_params,
    // Only when given: rows of templates without dynamic buttons keep their former shape.
    ...(params.button_params?.length ? { button_params: params.button_params } : {}),
  };
}

/** The QUEUED row of one template recipient (queued-row.ts builds every outbound row). */
export function queuedMessage(
  ctx: AuthContext,
  { number, template, media, shared }: Target,
  contact: { id: number; customerNumber: string | null; customerId: string | null },
  one: {
    updateId: string;
    payload: unknown;
    params: SentParams;
  },
): OutboundRow {
  return outboundRow(ctx, {
    waNumberId: number.id,
    contact,
    updateId: one.updateId,
    type: "template",
    payload: one.payload,
    sendParams: sendParamsOf(one.params),
    mediaPath: media?.path ?? null,
    template,
    routing: shared,
  });
}

export type SendResult = StoredResponse & { replayed: boolean };

/**
 * Spec 4.1: validates a template send and queues it (status QUEUED). Everything that can be
 * checked is checked before anything is written, then one statement writes the idempotency key
 * (if any), the contact and the message; it checks the marketing opt-out itself, and writes
 * nothing for an opted-out recipient. Common case: that one round trip (the number and template
 * come from the process's cache: send-catalog.ts; tests/api/send-round-trips.test.ts counts it).
 */
export async function sendTemplate({
  ctx,
  input,
  idempotency,
}: {
  ctx: AuthContext;
  input: SendTemplateInput;
  idempotency: Idempotency | null;
}): Promise<SendResult> {
  let checked;
  try {
    checked = await checkSend(ctx, input);
  } catch (err) {
    // A retry of a request that already succeeded gets its answer, whatever changed since (the
    // template rejected, the number switched off…): its key is looked up when the request no
    // longer passes. One that still passes finds it in the write's own statement below.
    if (idempotency && err instanceof ApiError) {
      const earlier = await findReplay(ctx.teamId, idempotency);
      if (earlier) return { ...earlier, replayed: true };
    }
    throw err;
  }
  const { number, template, params, media } = checked;
  const payload = buildTemplatePayload(toTemplateDto(template), { ...params, mediaUrl: media?.url ?? null });

  const updateId = randomUUID();
  const body: SendTemplateResponse = { message: SEND_QUEUED, data: { update_id: updateId } };
  // The delivery seam: this QUEUED row with next_attempt_at is the job itself. A delivery
  // worker (lib/delivery) claims due rows with `FOR UPDATE SKIP LOCKED`, sets a lease in
  // locked_until, sends through the number's channel and moves the status on; a crashed worker's
  // lease expires and another takes the row. Committing this row is therefore all it takes to
  // send, and nothing is lost between "accepted" (the 200 below) and "sent". Its contact comes
  // from the statement that writes it (insertOutboundToContact): the placeholder is not written.
  const row = queuedMessage(
    ctx,
    { number, template, media, shared: input },
    { id: 0, customerNumber: null, customerId: null },
    { updateId, payload, params: input },
  );
  // The contact, the message and the Idempotency-Key (if any) in one statement, its own
  // transaction: the key is claimed only with the message. It also refuses a MARKETING template to
  // a contact opted out of marketing (docs/features/opt-out.md; UTILITY ones and replies still go),
  // writing nothing then, and answers a key already stored with its first answer, writing nothing.
  const response = { status: 200, body };
  const out = await writeToContact(await getDb(), {
    row,
    destination: input.destination,
    refuseOptedOut: isMarketing(template.category),
    claim: idempotency ? claimOf(idempotency, response) : undefined,
  });
  if (out.stored) return { ...replayOf(out.stored, idempotency!), replayed: true };
  return { ...response, replayed: false };
}

/** Everything a send checks before it writes: number, template, bot, campaign, parameters, attachment. */
async function checkSend(ctx: AuthContext, input: SendTemplateInput) {
  const { number, template } = await resolveSendTarget(ctx, input);
  const params = resolveParams(template.components, input);
  const media = await resolveMedia(ctx.teamId, template, input.media_path);
  return { number, template, params, media };
}

/**
 * insertOutboundToContact, sent again when a concurrent request committed the recipient's new
 * contact or the same key after the statement's snapshot (it wrote nothing then, and the next
 * statement sees it); 422 for an opted-out recipient.
 */
async function writeToContact(db: DbOrTx, params: Parameters<typeof insertOutboundToContact>[1]) {
  for (let attempt = 1; ; attempt++) {
    const out = await insertOutboundToContact(db, params);
    if (out.stored) return out;
    if (out.optedOut) throw ApiError.invalid("destination", MARKETING_OPTED_OUT);
    if (out.inserted) return out;
    if (attempt >= 3) throw new Error("send: the recipient's contact was neither written nor found");
  }
}
