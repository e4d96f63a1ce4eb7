import "server-only";
import { getDb, transaction } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { randomSecret } from "@/lib/crypto/hash";
import { ApiError } from "@/lib/http/errors";
import { refuseInternalWebhookUrl } from "@/lib/bots/webhook-url";
import { offsetOf, paginationMeta } from "@/lib/http/pagination";
import { recordCallerAudit } from "@/lib/audit/service";
import {
  botHasMessages,
  deleteBotRow,
  findBotRow,
  findDefaultBotRow,
  insertBot,
  listBotRows,
  lockBotRow,
  updateBotRow,
  type BotRow,
} from "./repo";
import {
  BOT_IN_USE,
  BOT_NOT_FOUND,
  NO_WEBHOOK_TO_SIGN,
  createBotInput,
  updateBotInput,
  type BotDto,
  type BotSettingsDto,
  type CreateBotInput,
  type UpdateBotInput,
} from "./schemas";

export function toBotDto(row: BotRow): BotDto {
  return { id: row.id, name: row.name, is_default: row.isDefault };
}

export function toBotSettingsDto(row: BotRow): BotSettingsDto {
  return {
    ...toBotDto(row),
    webhook_url: row.webhookUrl,
    has_webhook_secret: row.webhookSecret !== null,
    created_at: row.createdAt.toISOString(),
  };
}

/** What the audit trail compares; the secret's value never reaches it (lib/audit/changes.ts), only that it changed. */
function audited(row: BotRow) {
  return { name: row.name, is_default: row.isDefault, webhook_url: row.webhookUrl, webhook_secret: row.webhookSecret };
}

const target = (row: BotRow) => ({ kind: "bot", id: row.id, name: row.name });

export async function listBots({ ctx, input }: { ctx: AuthContext; input: { page: number; per_page: number } }) {
  const { rows, total } = await listBotRows(await getDb(), {
    teamId: ctx.teamId,
    limit: input.per_page,
    offset: offsetOf(input.page, input.per_page),
  });
  return { data: rows.map(toBotDto), pagination: paginationMeta(total, input.per_page, input.page) };
}

/**
 * `POST /api/v1/bots` and the admin CLI's `bot:add`. With a webhook URL a signing secret is
 * generated; it is returned here once (the receiver needs it to check `X-Signature-256`), and
 * again only when rotated. Stored as the outgoing webhooks read it, to sign each delivery.
 */
export async function createBot({ ctx, input }: { ctx: AuthContext; input: CreateBotInput }) {
  const parsed = createBotInput.parse(input);
  refuseInternalWebhookUrl(parsed.webhook_url);
  const row = await transaction(async (tx) => {
    const row = await insertBot(tx, {
      teamId: ctx.teamId,
      name: parsed.name,
      isDefault: parsed.is_default,
      webhookUrl: parsed.webhook_url ?? null,
      webhookSecret: parsed.webhook_url ? randomSecret(32) : null,
    });
    await recordCallerAudit(tx, ctx, { action: "bot.created", target: target(row), after: audited(row) });
    return row;
  });
  return { ...toBotSettingsDto(row), webhook_secret: row.webhookSecret };
}

/**
 * Renames a bot, makes it (or stops it being) the default, or changes its webhook URL. A URL where
 * there was none gets a new secret, returned this once; removing the URL removes the secret.
 */
export async function updateBot({ ctx, input }: { ctx: AuthContext; input: UpdateBotInput & { id: number } }) {
  const parsed = updateBotInput.parse(input);
  refuseInternalWebhookUrl(parsed.webhook_url);
  return transaction(async (tx) => {
    const before = await lockBotRow(tx, { teamId: ctx.teamId, id: input.id });
    if (!before) throw ApiError.notFound(BOT_NOT_FOUND);
    const patch: Parameters<typeof updateBotRow>[1]["patch"] = {};
    if (parsed.name !== undefined) patch.name = parsed.name;
    if (parsed.is_default !== undefined) patch.isDefault = parsed.is_default;
    let newSecret: string | null = null;
    if (parsed.webhook_url !== undefined) {
      patch.webhookUrl = parsed.webhook_url;
      if (parsed.webhook_url === null) patch.webhookSecret = null;
      else if (!before.webhookSecret) patch.webhookSecret = newSecret = randomSecret(32);
    }
    const row = Object.keys(patch).length ? await updateBotRow(tx, { teamId: ctx.teamId, id: before.id, patch }) : before;
    await recordCallerAudit(tx, ctx, { action: "bot.updated", target: target(row), before: audited(before), after: audited(row) });
    return { ...toBotSettingsDto(row), webhook_secret: newSecret };
  });
}

/** A new signing secret for the bot's webhook, returned this once; the old one stops signing at once. */
export async function rotateBotSecret({ ctx, input }: { ctx: AuthContext; input: { id: number } }) {
  return transaction(async (tx) => {
    const before = await lockBotRow(tx, { teamId: ctx.teamId, id: input.id });
    if (!before) throw ApiError.notFound(BOT_NOT_FOUND);
    if (!before.webhookUrl) throw ApiError.conflict(NO_WEBHOOK_TO_SIGN);
    const row = await updateBotRow(tx, { teamId: ctx.teamId, id: before.id, patch: { webhookSecret: randomSecret(32) } });
    await recordCallerAudit(tx, ctx, { action: "bot.secret_rotated", target: target(row), before: audited(before), after: audited(row) });
    return { ...toBotSettingsDto(row), webhook_secret: row.webhookSecret };
  });
}

/**
 * Deletes a bot no message names (409 otherwise: the messages keep their routing). Replies that
 * would have reached it as the default go to no bot until another is made the default.
 */
export async function deleteBot({ ctx, input }: { ctx: AuthContext; input: { id: number } }) {
  return transaction(async (tx) => {
    const before = await lockBotRow(tx, { teamId: ctx.teamId, id: input.id });
    if (!before) throw ApiError.notFound(BOT_NOT_FOUND);
    if (await botHasMessages(tx, { teamId: ctx.teamId, id: before.id })) throw ApiError.conflict(BOT_IN_USE);
    await deleteBotRow(tx, { teamId: ctx.teamId, id: before.id });
    await recordCallerAudit(tx, ctx, { action: "bot.deleted", target: target(before), before: audited(before) });
    return toBotSettingsDto(before);
  });
}

/** Every bot of the team as its settings show them (the routing page), oldest first. */
export async function listBotSettings(teamId: number): Promise<BotSettingsDto[]> {
  const { rows } = await listBotRows(await getDb(), { teamId, limit: 1000, offset: 0 });
  return rows.map(toBotSettingsDto);
}

/** The team's bot with this id; another team's bot answers like a missing one (undefined). */
export async function findBotForTeam(teamId: number, id: number): Promise<BotRow | undefined> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2147483647) return undefined;
  return findBotRow(await getDb(), { teamId, id });
}

/** The bot that takes replies to CAMPAIGN sends without a campaign_id (ruling 8). */
export async function findDefaultBot(teamId: number): Promise<BotRow | undefined> {
  return findDefaultBotRow(await getDb(), teamId);
}
