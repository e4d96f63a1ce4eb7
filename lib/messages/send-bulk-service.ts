import "server-only";
import { randomUUID } from "node:crypto";
import type { DbOrTx } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError, type FieldErrors } from "@/lib/http/errors";
import { zodFieldErrors } from "@/lib/http/respond";
import { findReplay, writeOnce, type Idempotency } from "@/lib/idempotency/service";
import { toTemplateDto } from "@/lib/templates/service";
import { upsertContacts } from "@/lib/contacts/repo";
import { MARKETING_OPTED_OUT, optedOutAmong } from "@/lib/contacts/opt-out";
import { insertOutbound } from "./outbound-repo";
import type { SendBulkInput, SendBulkRecipient, SendBulkResponse, SendBulkResult } from "./send-bulk-schemas";
import { sendBulkRecipient } from "./send-bulk-schemas";
import { resolveMedia } from "./send-media";
import { resolveParams } from "./send-params";
import { queuedMessage, resolveSendTarget, type SendResult } from "./send-service";
import { buildTemplatePayload } from "./template-payload";

export const bulkQueued = (accepted: number, rejected: number) => `${accepted} mensajes en cola para su envío, ${rejected} rechazados.`;

type Accepted = { index: number; recipient: SendBulkRecipient; payload: unknown };

/**
 * One template to up to 1,000 recipients. The shared fields are checked once, exactly like a
 * single send (their errors fail the request); each recipient is then checked on its own and
 * its errors reported in its result. Every accepted message is written QUEUED in one
 * transaction of three statements (key, contacts, messages), whatever the number of recipients.
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
  const earlier = await findReplay(ctx.teamId, idempotency);
  if (earlier) return { ...earlier, replayed: true };

  const { number, template } = await resolveSendTarget(ctx, input);
  const media = await resolveMedia(ctx.teamId, template, input.media_path);
  const dto = toTemplateDto(template);

  const checkedAll = input.recipients.map((raw) => checkRecipient(template.components, raw));
  // One query for the whole list: which destinations opted out of marketing (none unless MARKETING).
  const optedOut = await optedOutAmong(
    ctx.teamId,
    template.category,
    checkedAll.flatMap((c) => ("recipient" in c ? [c.recipient.destination] : [])),
  );
  const results: SendBulkResult[] = [];
  const accepted: (Accepted & { updateId: string })[] = [];
  input.recipients.forEach((raw, index) => {
    const checked = checkedAll[index];
    if ("errors" in checked) {
      results.push({ index, destination: destinationOf(raw), errors: checked.errors });
      return;
    }
    if (optedOut.has(checked.recipient.destination)) {
      results.push({ index, destination: checked.recipient.destination, errors: { destination: [MARKETING_OPTED_OUT] } });
      return;
    }
    const payload = buildTemplatePayload(dto, { ...checked.params, mediaUrl: media?.url ?? null });
    const updateId = randomUUID();
    accepted.push({ index, recipient: checked.recipient, payload, updateId });
    results.push({ index, destination: checked.recipient.destination, update_id: updateId });
  });

  const body: SendBulkResponse = {
    message: bulkQueued(accepted.length, results.length - accepted.length),
    data: { accepted: accepted.length, rejected: results.length - accepted.length, results },
  };
  const write = async (tx: DbOrTx) => {
    // Sorted, so concurrent bulk sends to overlapping numbers lock contacts in one order.
    const numbers = [...new Set(accepted.map((a) => a.recipient.destination))].sort();
    const upserted = await upsertContacts(tx, { teamId: ctx.teamId, keys: numbers.map((number) => ({ number })) });
    const contactsByNumber = new Map(numbers.map((n, i) => [n, upserted[i]]));
    const target = { number, template, media, shared: input };
    await insertOutbound(
      tx,
      accepted.map((a) =>
        queuedMessage(ctx, target, contactsByNumber.get(a.recipient.destination)!, {
          updateId: a.updateId,
          payload: a.payload,
          params: a.recipient,
        }),
      ),
    );
  };
  // One transaction with or without a key: a bulk send is accepted whole or not at all.
  return writeOnce(ctx.teamId, idempotency, { status: 200, body }, write, { atomic: true });
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
