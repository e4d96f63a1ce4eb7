import { ApiError } from "@/lib/http/errors";
import { MAX_KEPT_CHARS } from "@/lib/http/json-limits";
import { readBodyLimited } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { parseEnvelope } from "@/lib/channels/cloud-api/webhook";
import { receiveStatusesGrouped, StatusAbandonedError } from "@/lib/delivery/status-batch";
import type { ChannelNumber } from "@/lib/channels/types";
import { deadLetter, isTransientDbError, keepDeadLetters, reasonOfError } from "./dead-letters";
import type { DeadLetterInput } from "./dead-letters-repo";
import { ingestEach } from "./inbound";
import { applyAccountChanges } from "./account-updates";
import { candidateAppSecrets, candidateVerifyTokens, cloudNumberByPhoneNumberId, effectiveAppSecret } from "./secrets";
import { signatureMatches, tokenMatches } from "./signature";
import { admitWebhook, ClientGoneError } from "./admission";

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
 * message and status is handled on its own: text Postgres cannot hold is cleaned (NUL removed,
 * lone surrogates → U+FFFD), an absurd timestamp is replaced by the receipt time (noted as a
 * `clamped` dead letter), and an item that fails its schema or its own transaction is kept in
 * `webhook_dead_letters` with its reason while the rest is stored; so is an item nested deeper
 * than MAX_ITEM_DEPTH or larger than MAX_ITEM_BYTES (lib/http/json-limits.ts), and a signed body
 * that is not JSON at all (whole, up to MAX_KEPT_CHARS). The business account's own changes
 * (template status, quality and category; number quality and limit; account events) are applied
 * at once, each in its own transaction (account-updates.ts). The batch answers 200 once
 * that is done. Only a failure of the database itself (connection lost, deadlock: the item is not
 * at fault) or of keeping the dead letters answers 500, so Meta redelivers; what was stored is
 * skipped then (wamids are unique per number).
 */
export async function receiveWhatsAppWebhook({
  req,
  onUnknownSignature,
}: {
  req: Request;
  /**
   * Wraps the slow path, taken only when no cached secret signed the body (a new number's secret,
   * or a forgery): the route spends the caller address's failure budget there, so a genuine
   * webhook never reads it (one database read less per webhook) and a flood is cut at the budget.
   */
  onUnknownSignature?: (check: () => Promise<string>) => Promise<string>;
}) {
  // A place among the posts in flight first: past the limit, 503 before the body is read.
  const place = admitWebhook();
  try {
    const raw = await readBodyLimited(req, MAX_WEBHOOK_BYTES);
    return await receiveSignedWebhook({ raw, signature: req.headers.get("x-hub-signature-256"), onUnknownSignature, signal: req.signal });
  } finally {
    place.release();
  }
}

/**
 * The 200 that tells Meta a batch is kept, with what became of each item: one builder for the
 * route and the fast lane, so their answers cannot drift apart.
 */
export function webhookReceived(data: Awaited<ReturnType<typeof receiveSignedWebhook>>): Response {
  return json({ message: "Webhook recibido.", data });
}

/**
 * receiveWhatsAppWebhook's work once the body's bytes are read (at most MAX_WEBHOOK_BYTES): the
 * route reads them from the Web Request, the fast lane (fast-lane.ts) straight from Node's.
 */
export async function receiveSignedWebhook({
  raw,
  signature: header,
  onUnknownSignature = (check) => check(),
  signal,
}: {
  raw: Uint8Array;
  /** The X-Hub-Signature-256 header as received (null when absent). */
  signature: string | null;
  onUnknownSignature?: (check: () => Promise<string>) => Promise<string>;
  /** The request's: once aborted (its client hung up), work not yet begun is dropped (ClientGoneError). */
  signal?: AbortSignal;
}) {
  if (signal?.aborted) throw new ClientGoneError();
  const signer =
    (await candidateAppSecrets()).find((s) => signatureMatches(s, raw, header)) ??
    (await onUnknownSignature(async () => {
      const found = (await candidateAppSecrets(true)).find((s) => signatureMatches(s, raw, header));
      if (!found) throw new ApiError(401, "Firma de webhook inválida.");
      return found;
    }));

  const result = { messages: 0, statuses: 0, updates: 0, ignored: 0 };
  const text = new TextDecoder().decode(raw);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    // Signed, so it comes from Meta (or whoever holds the secret): a 4xx would have it redelivered
    // for days, and no retry can fix it. The whole body is kept as a dead letter; the answer is 200.
    const reason = `body: not JSON (${err instanceof Error ? err.name : "Error"})`;
    await keepDeadLetters([deadLetter({ teamId: null, waNumberId: null }, reason, text.slice(0, MAX_KEPT_CHARS))]);
    console.warn("[webhooks] a signed body that is not JSON was set aside in webhook_dead_letters");
    return result;
  }
  const { changes, accountChanges, rejected } = parseEnvelope(body);
  const nowhere = { teamId: null, waNumberId: null };
  const dead: DeadLetterInput[] = rejected.map((r) => deadLetter(nowhere, r.reason, r.raw));
  let transient: unknown;
  const statuses: {
    number: ChannelNumber;
    at: { teamId: number; waNumberId: number };
    item: (typeof changes)[number]["statuses"][number];
  }[] = [];
  for (const change of changes) {
    const number = await cloudNumberByPhoneNumberId(change.phoneNumberId);
    if (!number || effectiveAppSecret(number) !== signer) {
      result.ignored += change.messages.length + change.statuses.length;
      dead.push(...change.rejected.map((r) => deadLetter(nowhere, r.reason, r.raw)));
      continue;
    }
    const at = { teamId: number.teamId, waNumberId: number.id };
    dead.push(...change.rejected.map((r) => deadLetter(at, r.reason, r.raw)));
    const outcomes = await ingestEach(
      number,
      change.messages.map((m) => m.msg),
    );
    outcomes.forEach((o, i) => {
      const { raw: item, clampedTimestamp } = change.messages[i];
      if (o.ok) {
        result.messages++;
        if (clampedTimestamp !== undefined) {
          const original = String(clampedTimestamp).slice(0, 100);
          dead.push(
            deadLetter(
              at,
              `message: timestamp ${original} is outside [2009-01-01, now + 1 day]; stored with the receipt time`,
              item,
              "clamped",
            ),
          );
        }
      } else if (!o.duplicate) {
        if (isTransientDbError(o.error)) transient ??= o.error;
        else dead.push(deadLetter(at, reasonOfError("message", o.error), item));
      }
    });
    for (const s of change.statuses) statuses.push({ number, at, item: s });
  }
  // Template and number changes (the account's own fields), applied at once, each on its own.
  if (accountChanges.length) {
    const applied = await applyAccountChanges(accountChanges, signer);
    result.updates += applied.updates;
    result.ignored += applied.ignored;
    dead.push(...applied.dead);
    if (applied.transient) transient ??= applied.transient;
  }
  // Every status of the body joins the process's group commit (lib/delivery/status-batch.ts);
  // a status that fails is set aside alone.
  const settled = await receiveStatusesGrouped(
    statuses.map((s) => ({ number: s.number, update: s.item.update })),
    signal,
  );
  let abandoned = false;
  settled.forEach((r, i) => {
    const { at, item } = statuses[i];
    if (r.status === "fulfilled") {
      if (r.value === "applied") result.statuses++;
    } else if (r.reason instanceof StatusAbandonedError) abandoned = true;
    else if (isTransientDbError(r.reason)) transient ??= r.reason;
    else dead.push(deadLetter(at, reasonOfError("status", r.reason), item.raw));
  });
  if (dead.length) {
    await keepDeadLetters(dead);
    console.warn(`[webhooks] ${dead.length} webhook items set aside in webhook_dead_letters`);
  }
  // Statuses left unapplied for a client that hung up: no answer; Meta redelivers them.
  if (abandoned) throw new ClientGoneError();
  // The database itself failed (not the item): 500, Meta redelivers, what was stored is skipped.
  if (transient) throw new Error("webhook: transient database failure", { cause: transient });
  return result;
}
