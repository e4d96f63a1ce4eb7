import "server-only";
import { ApiError } from "@/lib/http/errors";
import { webhookUrlRefusal, webhookUrlRefusalMessage } from "@/lib/outgoing-webhooks/url-policy";

/**
 * Refuses a bot's or campaign's webhook URL that points inside (or carries credentials) when it is
 * set, with the field's 422; the delivery checks again after DNS (lib/outgoing-webhooks/url-policy.ts).
 * `url` has passed webhookUrlSchema (http(s), parseable).
 */
export function refuseInternalWebhookUrl(url: string | null | undefined): void {
  if (!url) return;
  const refusal = webhookUrlRefusal(new URL(url));
  if (refusal) throw ApiError.invalid("webhook_url", webhookUrlRefusalMessage(refusal));
}
