import "server-only";
import { randomUUID } from "node:crypto";
import { getDb } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError, type FieldErrors } from "@/lib/http/errors";
import { zodFieldErrors } from "@/lib/http/respond";
import { claimOf, findReplay, replayOf, type Idempotency } from "@/lib/idempotency/service";
import { dynamicUrlButtons } from "@/lib/templates/params";
import { toTemplateDto } from "@/lib/templates/service";
import { MARKETING_OPTED_OUT, optedOutAmong } from "@/lib/contacts/opt-out";
import { insertBulkToContacts, type BulkRecipient } from "./outbound-repo";
import { payloadSlots } from "./payload-slots";
import type { SendBulkInput, SendBulkRecipient, SendBulkResponse, SendBulkResult } from "./send-bulk-schemas";
import { sendBulkRecipient } from "./send-bulk-schemas";
import { resolveMedia } from "./send-media";
import { resolveParams } from "./send-params";
import { queuedMessage, resolveSendTarget, sendParamsOf, type SendResult } from "./send-service";
import { buildTemplatePayload } from "./template-payload";

export const bulkQueued = (accepted: number, rejected: number) => `${accepted} mensajes en cola para su envío, ${rejected} rechazados.`;

/**
 * One template to up to 1,000 recipients. The shared fields are checked once, exactly like a
 * single send (their errors fail the request); each recipient is then checked on its own and
 * its errors reported in its result. Every accepted message is written QUEUED, with the key and
 * the contacts, in one statement (its own transaction) whatever the number of recipients. Common
 * case: that one round trip, plus the opted-out read of a MARKETING template (the number and
 * template come from the process's cache: send-catalog.ts).
 */
export async function sendBulk({
  ctx,
  input,
  idempotency,
}: {
  ctx: AuthContext;
  input: SendBulkInput;
  idempotency: Idempotency | null;
}): Promise<SendResult> {
  let checked;
  try {
    checked = await checkBulk(ctx, input);
  } catch (err) {
    // As a single send: a retry of a request that succeeded gets its answer even when it no
    // longer passes; one that passes finds it in the write's own statement below.
    if (idempotency && err instanceof ApiError) {
      const earlier = await findReplay(ctx.teamId, idempotency);
      if (earlier) return { ...earlier, replayed: true };
    }
    throw err;
  }
  const { number, template, media, checkedAll, optedOut } = checked;
  const dto = toTemplateDto(template);
  const mediaUrl = media?.url ?? null;
  // The payload built once; per recipient only its filled texts travel (payload-slots.ts).
  const { slots, fill } = payloadSlots(dto, dynamicUrlButtons(template.components).length > 0);
  const results: SendBulkResult[] = [];
  const rows: BulkRecipient[] = [];
  input.recipients.forEach((raw, index) => {
    const one = checkedAll[index];
    if ("errors" in one) {
      results.push({ index, destination: destinationOf(raw), errors: one.errors });
      return;
    }
    const { recipient, params } = one;
    if (optedOut.has(recipient.destination)) {
      results.push({ index, destination: recipient.destination, errors: { destination: [MARKETING_OPTED_OUT] } });
      return;
    }
    const updateId = randomUUID();
    rows.push({
      u: updateId,
      n: recipient.destination,
      ...fill({ ...params, mediaUrl }),
      s: sendParamsOf(recipient),
    });
    results.push({ index, destination: recipient.destination, update_id: updateId });
  });

  const body: SendBulkResponse = {
    message: bulkQueued(rows.length, results.length - rows.length),
    data: { accepted: rows.length, rejected: results.length - rows.length, results },
  };
  const response = { status: 200, body };
  // Nothing to write and no key to claim: nothing to send the database.
  if (!rows.length && !idempotency) return { ...response, replayed: false };
  // The columns every message shares, built as every outbound row is (queued-row.ts), once.
  const shared = queuedMessage(
    ctx,
    { number, template, media, shared: input },
    { id: 0, customerNumber: null, customerId: null },
    { updateId: "", payload: buildTemplatePayload(dto, { header: {}, body: {}, buttons: {}, mediaUrl }), params: { body_params: [] } },
  );
  const claim = idempotency ? claimOf(idempotency, response) : undefined;
  const db = await getDb();
  for (let attempt = 1; ; attempt++) {
    const out = await insertBulkToContacts(db, { shared, slots, rows, claim });
    if (out.stored) return { ...replayOf(out.stored, idempotency!), replayed: true };
    if (out.inserted) return { ...response, replayed: false };
    // A contact or the key committed by a concurrent request after the statement's snapshot.
    if (attempt >= 3) throw new Error("bulk send: the recipients' contacts were neither written nor found");
  }
}

/** The shared checks (number, template, bot, campaign, attachment), each recipient's, and who opted out of marketing. */
async function checkBulk(ctx: AuthContext, input: SendBulkInput) {
  const { number, template } = await resolveSendTarget(ctx, input);
  const media = await resolveMedia(ctx.teamId, template, input.media_path);
  const checkedAll = input.recipients.map((raw) => checkRecipient(template.components, raw));
  // One query for the whole list: which destinations opted out of marketing (none unless MARKETING).
  const optedOut = await optedOutAmong(
    ctx.teamId,
    template.category,
    checkedAll.flatMap((c) => ("recipient" in c ? [c.recipient.destination] : [])),
  );
  return { number, template, media, checkedAll, optedOut };
}

type Checked = { recipient: SendBulkRecipient; params: ReturnType<typeof resolveParams> } | { errors: FieldErrors };

function checkRecipient(components: Parameters<typeof resolveParams>[0], raw: unknown): Checked {
  const parsed = sendBulkRecipient.safeParse(raw);
  if (!parsed.success) return { errors: zodFieldErrors(parsed.error) };
  try {
    return { recipient: parsed.data, params: resolveParams(components, parsed.data) };
  } catch (err) {
    if (err instanceof ApiError && err.errors) return { errors: err.errors };
    throw err;
  }
}

function destinationOf(raw: unknown): string {
  const d = raw && typeof raw === "object" ? (raw as { destination?: unknown }).destination : undefined;
  return typeof d === "string" ? d : "";
}
