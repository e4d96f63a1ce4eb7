import "server-only";
import { getDb } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError } from "@/lib/http/errors";
import { offsetOf, paginationMeta } from "@/lib/http/pagination";
import { sanitizeNumber } from "@/lib/phone";
import { encryptJson } from "@/lib/crypto/secrets";
import { credentialsChanged } from "@/lib/channels/credentials";
import { findNumber, insertNumber, listNumbers } from "./repo";
import type { WaNumberDto } from "./schemas";
import { numberDisabled } from "./settings-schemas";
import { findSendingNumber } from "@/lib/messages/send-catalog";

type Row = Awaited<ReturnType<typeof listNumbers>>["rows"][number];

export function toWaNumberDto(row: Row): WaNumberDto {
  return {
    id: row.id,
    number: row.number,
    display_name: row.displayName,
    provider: row.provider,
    messages_per_second: row.messagesPerSecond,
    quality_rating: row.qualityRating,
    messaging_limit_tier: row.messagingLimitTier,
    health_event: row.healthEvent,
    health_updated_at: row.healthUpdatedAt ? new Date(row.healthUpdatedAt).toISOString() : null,
    business_account_id: row.businessAccountId,
    disabled: row.disabledAt !== null,
  };
}

export async function listWaNumbers({ ctx, input }: { ctx: AuthContext; input: { page: number; per_page: number } }) {
  const { rows, total } = await listNumbers(await getDb(), {
    teamId: ctx.teamId,
    limit: input.per_page,
    offset: offsetOf(input.page, input.per_page),
  });
  return { data: rows.map(toWaNumberDto), pagination: paginationMeta(total, input.per_page, input.page) };
}

export const WA_NUMBER_NOT_REGISTERED = "El número de WhatsApp no está registrado.";

/** The caller's registered number, or 422 on `field` (spec 4.1: unregistered wa_number → 422). */
export async function requireNumber(ctx: AuthContext, raw: string, field = "wa_number") {
  const row = await findNumber(await getDb(), { teamId: ctx.teamId, number: sanitizeNumber(raw) });
  if (!row) throw ApiError.invalid(field, WA_NUMBER_NOT_REGISTERED);
  return row;
}

/**
 * The number a send goes out from: registered (the contract's 422 otherwise), and not switched off
 * in the settings (docs/features/numbers.md): a disabled number's sends are refused, 422 on the same field.
 */
export async function requireSendingNumber(ctx: AuthContext, raw: string, field = "wa_number") {
  // From this process's cache of sending numbers when it may be trusted (lib/messages/send-catalog.ts).
  const row = await findSendingNumber(ctx.teamId, sanitizeNumber(raw));
  if (!row) throw ApiError.invalid(field, WA_NUMBER_NOT_REGISTERED);
  if (row.disabledAt) throw ApiError.invalid(field, numberDisabled(row.number));
  return row;
}

export type ChannelCredentials = {
  accessToken?: string;
  appSecret?: string;
  verifyToken?: string;
};

export async function addNumber({
  input,
}: {
  input: {
    teamId: number;
    number: string;
    displayName?: string;
    provider?: "sandbox" | "cloud_api";
    phoneNumberId?: string;
    businessAccountId?: string;
    credentials?: ChannelCredentials;
    messagesPerSecond?: number;
  };
}) {
  const row = await insertNumber(await getDb(), {
    teamId: input.teamId,
    number: sanitizeNumber(input.number),
    displayName: input.displayName ?? "",
    provider: input.provider ?? "sandbox",
    phoneNumberId: input.phoneNumberId ?? null,
    businessAccountId: input.businessAccountId ?? null,
    credentials: input.credentials ? encryptJson(input.credentials) : null,
    messagesPerSecond: input.messagesPerSecond ?? 80,
  });
  credentialsChanged();
  return toWaNumberDto(row);
}
