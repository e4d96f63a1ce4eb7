import "server-only";
import { forgetSendCatalog } from "@/lib/messages/send-catalog";
import { getDb, transaction } from "@/db/client";
import { uniqueViolation } from "@/db/errors";
import type { AuthContext } from "@/lib/auth/context";
import { recordCallerAudit } from "@/lib/audit/service";
import { credentialsChanged, withSecrets } from "@/lib/channels/credentials";
import { fetchPhoneNumber, type GraphCheckError, type GraphPhoneNumber } from "@/lib/channels/cloud-api/phone-number";
import { config } from "@/lib/config";
import { decryptJson, encryptJson } from "@/lib/crypto/secrets";
import { randomSecret } from "@/lib/crypto/hash";
import { graphSettings } from "@/lib/delivery/config";
import { ApiError } from "@/lib/http/errors";
import { providerErrorsEs } from "@/lib/i18n/provider-errors.es";
import {
  findNumberById,
  findTeamSandboxNumber,
  insertNumber,
  listTeamNumbers,
  lockNumberById,
  numberKeysTaken,
  updateNumber,
} from "./repo";
import type { ChannelCredentials } from "./service";
import {
  APP_SECRET_NEEDED,
  NO_ACCESS_TOKEN,
  NUMBER_NOT_FOUND,
  PHONE_NUMBER_ID_TAKEN,
  SANDBOX_EXISTS,
  SANDBOX_NO_CREDENTIALS,
  numberTaken,
  type CreateNumberInput,
  type NumberCheckDto,
  type NumberCheckErrorDto,
  type NumberSettingsDto,
  type UpdateNumberInput,
} from "./settings-schemas";

/**
 * The team's numbers as settings (docs/features/numbers.md): what the settings page lists, adds,
 * changes, switches off and checks with Meta. Credentials are encrypted as the CLI stores them
 * (lib/crypto/secrets.ts) and never answered back; the audit trail records only that they changed.
 */

type Row = Awaited<ReturnType<typeof listTeamNumbers>>[number];

/** Where Meta posts the webhooks of every number (one route for all: docs/features/numbers.md). */
export function webhookCallbackUrl(): string {
  return `${config.appUrl}/api/v1/webhooks/whatsapp`;
}

function secretsOf(row: Row): ChannelCredentials {
  if (!row.credentials) return {};
  try {
    return decryptJson<ChannelCredentials>(row.credentials);
  } catch {
    // Written with another key (APP_ENCRYPTION_KEY changed): shown as not set, to be entered again.
    return {};
  }
}

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export function toNumberSettingsDto(row: Row): NumberSettingsDto {
  const secrets = secretsOf(row);
  const sandbox = row.provider === "sandbox";
  // The number's own verify token, else the deployment's: either answers Meta's handshake.
  const verifyToken = sandbox ? null : (secrets.verifyToken ?? config.whatsappVerifyToken ?? null);
  return {
    id: row.id,
    number: row.number,
    display_name: row.displayName,
    provider: row.provider,
    sandbox,
    phone_number_id: row.phoneNumberId,
    waba_id: row.businessAccountId,
    messages_per_second: row.messagesPerSecond,
    disabled: row.disabledAt !== null,
    disabled_at: iso(row.disabledAt),
    quality_rating: row.qualityRating,
    messaging_limit_tier: row.messagingLimitTier,
    health_updated_at: iso(row.healthUpdatedAt),
    verified_name: row.verifiedName,
    verified_at: iso(row.verifiedAt),
    credentials: { access_token: !!secrets.accessToken, app_secret: !!secrets.appSecret, verify_token: !!secrets.verifyToken },
    webhook: {
      callback_url: webhookCallbackUrl(),
      verify_token: verifyToken,
      verify_token_source: sandbox || !verifyToken ? null : secrets.verifyToken ? "number" : "setting",
    },
    created_at: new Date(row.createdAt).toISOString(),
  };
}

/** The fields of a number the audit trail compares (secrets by name only: lib/audit/changes.ts). */
function audited(row: Row) {
  return {
    display_name: row.displayName,
    messages_per_second: row.messagesPerSecond,
    disabled: row.disabledAt !== null,
  };
}

export async function listNumberSettings({ ctx }: { ctx: AuthContext }): Promise<NumberSettingsDto[]> {
  return (await listTeamNumbers(await getDb(), ctx.teamId)).map(toNumberSettingsDto);
}

async function requireTeamNumber(ctx: AuthContext, id: number) {
  const row = await findNumberById(await getDb(), { teamId: ctx.teamId, id });
  if (!row) throw ApiError.notFound(NUMBER_NOT_FOUND);
  return row;
}

/** A Cloud API number from the page's form: the ids Meta shows, its token and app secret. */
export async function createNumber({ ctx, input }: { ctx: AuthContext; input: CreateNumberInput }): Promise<NumberSettingsDto> {
  if (!input.app_secret && !config.whatsappAppSecret) throw ApiError.invalid("app_secret", APP_SECRET_NEEDED);
  const db = await getDb();
  const taken = await numberKeysTaken(db, { number: input.phone_number, phoneNumberId: input.phone_number_id });
  if (taken.number) throw ApiError.invalid("phone_number", numberTaken(input.phone_number));
  if (taken.phoneNumberId) throw ApiError.invalid("phone_number_id", PHONE_NUMBER_ID_TAKEN);
  // Meta's handshake needs a token we issued; one is made when the form leaves it out.
  const credentials: ChannelCredentials = {
    accessToken: input.access_token,
    appSecret: input.app_secret,
    verifyToken: input.verify_token ?? randomSecret(18),
  };
  try {
    const row = await transaction(async (tx) => {
      const created = await insertNumber(tx, {
        teamId: ctx.teamId,
        number: input.phone_number,
        displayName: input.display_name,
        provider: "cloud_api",
        phoneNumberId: input.phone_number_id,
        businessAccountId: input.waba_id,
        credentials: encryptJson(credentials),
        messagesPerSecond: input.messages_per_second ?? 80,
      });
      // The CLI's action: one "number added" whoever added it.
      await recordCallerAudit(tx, ctx, {
        action: "number.added",
        target: { kind: "number", id: created.id, name: created.number },
        after: {
          number: created.number,
          display_name: created.displayName,
          provider: created.provider,
          phone_number_id: created.phoneNumberId,
          business_account_id: created.businessAccountId,
          messages_per_second: created.messagesPerSecond,
          ...credentialMarks(credentials),
        },
      });
      return created;
    });
    credentialsChanged();
    return toNumberSettingsDto(row);
  } catch (err) {
    // Another request took the number or its id between the check and the insert.
    if (uniqueViolation(err)) throw ApiError.invalid("phone_number", numberTaken(input.phone_number));
    throw err;
  }
}

/** `access_token: "changed"` for each credential given: a secret's name, never its value. */
function credentialMarks(c: ChannelCredentials) {
  return Object.fromEntries(
    Object.entries({ access_token: c.accessToken, app_secret: c.appSecret, verify_token: c.verifyToken })
      .filter(([, v]) => v)
      .map(([k]) => [k, "changed"]),
  );
}

/**
 * Changes a number's name, pacing, state or credentials. Switching it off or on is its own audit
 * action (number.disabled / number.enabled); the rest is number.updated. New credentials replace
 * only the ones given.
 */
export async function updateNumberSettings({
  ctx,
  input,
}: {
  ctx: AuthContext;
  input: { id: number; changes: UpdateNumberInput };
}): Promise<NumberSettingsDto> {
  const { changes } = input;
  const given: ChannelCredentials = { accessToken: changes.access_token, appSecret: changes.app_secret, verifyToken: changes.verify_token };
  const newCredentials = Object.values(given).some(Boolean);
  const row = await transaction(async (tx) => {
    const before = await lockNumberById(tx, { teamId: ctx.teamId, id: input.id });
    if (!before) throw ApiError.notFound(NUMBER_NOT_FOUND);
    if (newCredentials && before.provider === "sandbox") throw ApiError.invalid("access_token", SANDBOX_NO_CREDENTIALS);
    const set: Parameters<typeof updateNumber>[1]["set"] = {};
    if (changes.display_name !== undefined) set.displayName = changes.display_name;
    if (changes.messages_per_second !== undefined) set.messagesPerSecond = changes.messages_per_second;
    if (changes.disabled !== undefined && changes.disabled !== (before.disabledAt !== null)) {
      set.disabledAt = changes.disabled ? new Date() : null;
    }
    if (newCredentials) {
      const merged = { ...secretsOf(before), ...Object.fromEntries(Object.entries(given).filter(([, v]) => v)) };
      set.credentials = encryptJson(merged);
    }
    if (!Object.keys(set).length) return before;
    const after = await updateNumber(tx, { teamId: ctx.teamId, id: before.id, set });
    const target = { kind: "number", id: after.id, name: after.number };
    const { disabled: wasOff, ...restBefore } = audited(before);
    const { disabled: isOff, ...restAfter } = audited(after);
    if (wasOff !== isOff) {
      await recordCallerAudit(tx, ctx, { action: isOff ? "number.disabled" : "number.enabled", target });
    }
    const marks = credentialMarks(given);
    if (JSON.stringify(restBefore) !== JSON.stringify(restAfter) || Object.keys(marks).length) {
      await recordCallerAudit(tx, ctx, { action: "number.updated", target, before: restBefore, after: { ...restAfter, ...marks } });
    }
    return after;
  });
  // A switch-off refuses this process's next send at once, before the NOTIFY comes back.
  forgetSendCatalog(ctx.teamId);
  if (newCredentials) credentialsChanged();
  return toNumberSettingsDto(row);
}

/** Meta's error in Spanish words for the API's `message` (the page says it in the agent's language). */
export function checkErrorWords(e: NumberCheckErrorDto): string {
  if (e.kind === "network") return `No se pudo contactar con la API Graph de Meta (${e.message}).`;
  if (e.kind === "timeout") return "La API Graph de Meta no respondió a tiempo.";
  if (e.kind === "invalid") return `Meta respondió algo inesperado (${e.message}).`;
  const known = e.code !== null ? (providerErrorsEs as Record<string, string>)[`providerError.${e.code}`] : undefined;
  return known ? `Meta rechazó la verificación: ${known} (${e.code}: ${e.message}).` : `Meta rechazó la verificación: ${e.message}.`;
}

/**
 * Asks Meta for the number (GET /{phone-number-id}?fields=display_phone_number,verified_name,
 * quality_rating,messaging_limit_tier) with the number's own token, and keeps what came back:
 * its verified name, quality rating and messaging limit. The sandbox number answers for itself.
 * Meta's refusal (a bad token: 190) is an answer, not a failure of this call: 200 with `verified:
 * false` and Meta's error as it came, worded in `message`.
 */
export async function verifyNumber({
  ctx,
  input,
}: {
  ctx: AuthContext;
  input: { id: number };
}): Promise<{ message: string; data: NumberCheckDto }> {
  const row = await requireTeamNumber(ctx, input.id);
  let outcome: { ok: true; phone: GraphPhoneNumber } | { ok: false; error: GraphCheckError };
  if (row.provider === "sandbox") {
    outcome = {
      ok: true,
      phone: { displayPhoneNumber: `+${row.number}`, verifiedName: row.displayName, qualityRating: null, messagingLimitTier: null },
    };
  } else {
    const channel = withSecrets(row);
    if (!channel.secrets.accessToken) throw ApiError.invalid("access_token", NO_ACCESS_TOKEN);
    // Outside any transaction: Meta may take up to GRAPH_TIMEOUT_MS to answer.
    outcome = await fetchPhoneNumber(graphSettings(), channel);
  }
  const sandbox = row.provider === "sandbox";
  const saved = await transaction(async (tx) => {
    const before = await lockNumberById(tx, { teamId: ctx.teamId, id: row.id });
    if (!before) throw ApiError.notFound(NUMBER_NOT_FOUND);
    const target = { kind: "number", id: before.id, name: before.number };
    if (!outcome.ok) {
      await recordCallerAudit(tx, ctx, {
        action: "number.verified",
        target,
        after: { result: "error", error_code: outcome.error.code, error: outcome.error.message },
      });
      return before;
    }
    const p = outcome.phone;
    const set: Parameters<typeof updateNumber>[1]["set"] = { verifiedName: p.verifiedName, verifiedAt: new Date() };
    // Meta's word on the number's health is kept as its webhooks' is (lib/numbers/health.ts); the
    // sandbox has none.
    if (!sandbox) {
      set.qualityRating = p.qualityRating ?? before.qualityRating;
      set.messagingLimitTier = p.messagingLimitTier ?? before.messagingLimitTier;
      set.healthUpdatedAt = new Date();
    }
    const after = await updateNumber(tx, { teamId: ctx.teamId, id: before.id, set });
    await recordCallerAudit(tx, ctx, {
      action: "number.verified",
      target,
      before: {
        result: null,
        verified_name: before.verifiedName,
        quality_rating: before.qualityRating,
        messaging_limit_tier: before.messagingLimitTier,
      },
      after: {
        result: "ok",
        verified_name: after.verifiedName,
        quality_rating: after.qualityRating,
        messaging_limit_tier: after.messagingLimitTier,
      },
    });
    return after;
  });
  const number = toNumberSettingsDto(saved);
  if (!outcome.ok) {
    const e = outcome.error;
    const error: NumberCheckErrorDto = {
      kind: e.kind,
      code: e.code,
      subcode: e.subcode,
      type: e.type,
      message: e.message,
      fbtrace_id: e.fbtraceId,
    };
    return {
      message: checkErrorWords(error),
      data: {
        verified: false,
        sandbox,
        display_phone_number: null,
        verified_name: null,
        quality_rating: null,
        messaging_limit_tier: null,
        error,
        number,
      },
    };
  }
  const p = outcome.phone;
  return {
    message: sandbox ? "Número de pruebas: responde el propio servicio, sin llamar a Meta." : "Número verificado con Meta.",
    data: {
      verified: true,
      sandbox,
      display_phone_number: p.displayPhoneNumber,
      verified_name: p.verifiedName,
      quality_rating: p.qualityRating,
      messaging_limit_tier: p.messagingLimitTier,
      error: null,
      number,
    },
  };
}

/**
 * The team's sandbox number, as the demo has one (lib/seed/demo.ts): sends through it walk
 * sent → delivered → read in-process, and `POST /api/v1/sandbox/inbound` plays a customer. Its
 * digits are Meta's test range, +1 555, and the team's id: unique, and never a real customer's.
 */
export function sandboxDigits(teamId: number): string {
  return `1555${String(teamId).padStart(7, "0")}`;
}

export async function createSandboxNumber({ ctx }: { ctx: AuthContext }): Promise<NumberSettingsDto> {
  const number = sandboxDigits(ctx.teamId);
  try {
    const row = await transaction(async (tx) => {
      // Two clicks at once both pass this check; the number's unique index stops the second (below).
      if (await findTeamSandboxNumber(tx, ctx.teamId)) throw ApiError.conflict(SANDBOX_EXISTS);
      const created = await insertNumber(tx, { teamId: ctx.teamId, number, displayName: "Número de pruebas", provider: "sandbox" });
      await recordCallerAudit(tx, ctx, {
        action: "number.added",
        target: { kind: "number", id: created.id, name: created.number },
        after: { number: created.number, display_name: created.displayName, provider: created.provider },
      });
      return created;
    });
    return toNumberSettingsDto(row);
  } catch (err) {
    // Two clicks at once: the second insert meets the first one's number.
    if (uniqueViolation(err)) throw ApiError.conflict(SANDBOX_EXISTS);
    throw err;
  }
}
