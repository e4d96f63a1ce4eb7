import "server-only";
import { getDb, transaction } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { randomSecret } from "@/lib/crypto/hash";
import { offsetOf, paginationMeta } from "@/lib/http/pagination";
import { findBotRow, findDefaultBotRow, insertBot, listBotRows, type BotRow } from "./repo";
import { createBotInput, type BotDto, type CreateBotInput } from "./schemas";

export function toBotDto(row: BotRow): BotDto {
  return { id: row.id, name: row.name, is_default: row.isDefault };
}

export async function listBots({ ctx, input }: { ctx: AuthContext; input: { page: number; per_page: number } }) {
  const { rows, total } = await listBotRows(await getDb(), ctx.teamId, input.per_page, offsetOf(input.page, input.per_page));
  return { data: rows.map(toBotDto), pagination: paginationMeta(total, input.per_page, input.page) };
}

/**
 * Admin CLI `bot:add`. With a webhook URL a signing secret is generated; it is returned here once
 * (the receiver needs it to check `X-Signature-256`) and never by the API.
 */
export async function createBot({ ctx, input }: { ctx: AuthContext; input: CreateBotInput }) {
  const parsed = createBotInput.parse(input);
  const row = await transaction((tx) =>
    insertBot(tx, {
      teamId: ctx.teamId,
      name: parsed.name,
      isDefault: parsed.is_default,
      webhookUrl: parsed.webhook_url ?? null,
      webhookSecret: parsed.webhook_url ? randomSecret(32) : null,
    }),
  );
  return { ...toBotDto(row), webhook_url: row.webhookUrl, webhook_secret: row.webhookSecret };
}

/** The team's bot with this id; another team's bot answers like a missing one (undefined). */
export async function findBotForTeam(teamId: number, id: number): Promise<BotRow | undefined> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2147483647) return undefined;
  return findBotRow(await getDb(), teamId, id);
}

/** The bot that takes replies to CAMPAIGN sends without a campaign_id (ruling 8). */
export async function findDefaultBot(teamId: number): Promise<BotRow | undefined> {
  return findDefaultBotRow(await getDb(), teamId);
}
