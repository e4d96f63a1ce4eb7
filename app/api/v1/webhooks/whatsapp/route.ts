import { withErrors } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { withAddressFailureBudget } from "@/lib/rate-limit/failures";
import { webhookVerifyQuery } from "@/lib/meta-webhooks/schemas";
import { receiveWhatsAppWebhook, verifyHandshake, webhookReceived } from "@/lib/meta-webhooks/whatsapp-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

/** Meta's subscription handshake: the challenge echoed as plain text. */
export const GET = withErrors(async ({ req }) => {
  const q = parseQuery(req, webhookVerifyQuery);
  const challenge = await withAddressFailureBudget(req, () =>
    verifyHandshake({ input: { mode: q["hub.mode"], token: q["hub.verify_token"], challenge: q["hub.challenge"] } }),
  );
  return new Response(challenge, { status: 200, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
});

/**
 * Signed Cloud API notifications (messages and statuses); the raw body is verified before parsing.
 * Under `next start` these posts are answered by the fast lane before they reach Next
 * (lib/meta-webhooks/fast-lane.ts, WEBHOOK_FAST_LANE) with the same work and answers; this handler
 * serves them under `next dev`, with WEBHOOK_FAST_LANE=0, and in the in-process test server.
 * Unsigned or mis-signed posts spend the caller address's failure budget (429 once it is spent);
 * a body signed with a secret this process already holds never reads it.
 */
export const POST = withErrors(async ({ req }) => {
  const data = await receiveWhatsAppWebhook({ req, onUnknownSignature: (check) => withAddressFailureBudget(req, check) });
  return webhookReceived(data);
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "POST", "HEAD"]);
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
