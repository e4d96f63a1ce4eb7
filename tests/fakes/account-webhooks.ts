import { createHmac } from "node:crypto";

/**
 * Meta's WhatsApp Business Account webhooks for templates and number health, as Meta posts them
 * (test-only): `{"object":"whatsapp_business_account","entry":[{"id":<WABA id>,"time":<seconds>,
 * "changes":[{"field":…,"value":…}]}]}`, signed `X-Hub-Signature-256: sha256=HMAC_SHA256(app
 * secret, raw body)` on the same callback URL as messages. The value shapes are Meta's webhook
 * reference for each field: message_template_status_update, message_template_quality_update,
 * template_category_update, phone_number_quality_update, account_update.
 */
export type AccountChange = { field: string; value: unknown };
export type TemplateName = { id?: string | number; name: string; language: string };

const ref = (t: TemplateName) => ({
  ...(t.id !== undefined ? { message_template_id: Number(t.id) } : {}),
  message_template_name: t.name,
  message_template_language: t.language,
});

/** APPROVED, REJECTED (with `reason`), PAUSED, DISABLED, IN_APPEAL, FLAGGED… */
export function templateStatusUpdate(t: TemplateName, event: string, reason = "NONE", extra: Record<string, unknown> = {}): AccountChange {
  return { field: "message_template_status_update", value: { event, ...ref(t), reason, ...extra } };
}

export function templateQualityUpdate(t: TemplateName, previous: string, next: string): AccountChange {
  return { field: "message_template_quality_update", value: { previous_quality_score: previous, new_quality_score: next, ...ref(t) } };
}

/** A completed category change (previous → new); `correct` instead announces one to come. */
export function templateCategoryUpdate(t: TemplateName, previous: string, next: string): AccountChange {
  return { field: "template_category_update", value: { ...ref(t), previous_category: previous, new_category: next } };
}

export function templateCategoryImpending(t: TemplateName, current: string, correct: string, at: number): AccountChange {
  return {
    field: "template_category_update",
    value: { ...ref(t), correct_category: correct, new_category: current, category_update_timestamp: at },
  };
}

/** FLAGGED, UNFLAGGED, DOWNGRADE, UPGRADE… with the messaging limit tiers. */
export function phoneNumberQualityUpdate(
  displayPhoneNumber: string,
  event: string,
  currentLimit: string,
  oldLimit?: string,
): AccountChange {
  return {
    field: "phone_number_quality_update",
    value: {
      display_phone_number: displayPhoneNumber,
      event,
      ...(oldLimit ? { old_limit: oldLimit } : {}),
      current_limit: currentLimit,
      max_daily_conversations_per_business: currentLimit,
    },
  };
}

export function accountUpdate(event: string, extra: Record<string, unknown> = {}): AccountChange {
  return { field: "account_update", value: { event, ...extra } };
}

export function accountEnvelope(wabaId: string, changes: AccountChange[], time = Math.floor(Date.now() / 1000)) {
  return { object: "whatsapp_business_account", entry: [{ id: wabaId, time, changes }] };
}

/** POSTs a business account's changes to the webhook URL as Meta does; the answer's status and JSON. */
export async function postAccountWebhook(
  url: string,
  appSecret: string,
  wabaId: string,
  changes: AccountChange[],
  opts: { time?: number; body?: unknown } = {},
): Promise<{ status: number; body: any; raw: string }> {
  const raw = JSON.stringify(opts.body ?? accountEnvelope(wabaId, changes, opts.time));
  const signature = createHmac("sha256", appSecret).update(raw).digest("hex");
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", "x-hub-signature-256": `sha256=${signature}` },
    body: raw,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body, raw };
}
