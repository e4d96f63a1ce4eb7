import { ApiError } from "@/lib/http/errors";
import { readBodyLimited } from "@/lib/http/parse";
import { withSecrets } from "@/lib/channels/credentials";
import { parseEnvelope } from "@/lib/channels/cloud-api/webhook";
import { applyStatusUpdates } from "@/lib/delivery/status";
import { ingestInbound } from "./inbound";
import { numberByPhoneNumberId } from "./repo";
import { candidateAppSecrets, candidateVerifyTokens, effectiveAppSecret } from "./secrets";
import { signatureMatches, tokenMatches } from "./signature";

export const MAX_WEBHOOK_BYTES = 1024 * 1024;

/** GET handshake: echoes hub.challenge when hub.verify_token is one we issued (a number's or WHATSAPP_VERIFY_TOKEN). */
export async function verifyHandshake({ input }: { input: { mode?: string; token?: string; challenge?: string } }): Promise<string> {
  const { mode, token, challenge } = input;
  if (mode !== "subscribe" || !token || challenge === undefined) throw ApiError.forbidden("Verificación de webhook rechazada.");
  const matches = (list: string[]) => list.some((t) => tokenMatches(t, token));
  if (!matches(await candidateVerifyTokens()) && !matches(await candidateVerifyTokens(true))) {
    throw ApiError.forbidden("Verificación de webhook rechazada.");
  }
  return challenge;
}

/**
 * POST from Meta. The signature is checked over the raw bytes BEFORE anything is parsed: the
 * body must be signed with WHATSAPP_APP_SECRET or with the app secret of one of our Cloud API
 * numbers (tried in constant time each; a number added a moment ago is found by one refresh).
 * Then each change is only accepted for a number whose own secret is the one that signed —
 * one tenant's Meta app can never write into another tenant's number. Every entry, change,
 * message and status is handled; one failing item makes the answer 500 so Meta redelivers
 * (what was stored is skipped on redelivery: wamids are unique per number).
 */
export async function receiveWhatsAppWebhook({ req }: { req: Request }) {
  const raw = await readBodyLimited(req, MAX_WEBHOOK_BYTES);
  const header = req.headers.get("x-hub-signature-256");
  const signer =
    (await candidateAppSecrets()).find((s) => signatureMatches(s, raw, header)) ??
    (await candidateAppSecrets(true)).find((s) => signatureMatches(s, raw, header));
  if (!signer) throw new ApiError(401, "Firma de webhook inválida.");

  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw ApiError.badRequest("El cuerpo de la solicitud no es un JSON válido.");
  }
  const result = { messages: 0, statuses: 0, ignored: 0 };
  const failures: unknown[] = [];
  for (const change of parseEnvelope(body)) {
    const row = await numberByPhoneNumberId(change.phoneNumberId);
    const number = row ? withSecrets(row) : undefined;
    if (!number || effectiveAppSecret(number) !== signer) {
      result.ignored += change.messages.length + change.statuses.length;
      continue;
    }
    try {
      result.messages += (await ingestInbound(number, change.messages)).length;
      result.statuses += await applyStatusUpdates(number, change.statuses);
    } catch (err) {
      failures.push(err);
    }
  }
  if (failures.length) {
    console.error("[webhooks] items failed; Meta will redeliver the batch", failures);
    throw new Error("webhook items failed");
  }
  return result;
}
