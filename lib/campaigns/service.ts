import "server-only";
import { getDb } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { randomSecret } from "@/lib/crypto/hash";
import { offsetOf, paginationMeta } from "@/lib/http/pagination";
import { findCampaignRow, insertCampaign, listCampaignRows, type CampaignRow } from "./repo";
import { createCampaignInput, type CampaignDto, type CreateCampaignInput } from "./schemas";

export function toCampaignDto(row: CampaignRow): CampaignDto {
  return { id: row.id, name: row.name };
}

export async function listCampaigns({ ctx, input }: { ctx: AuthContext; input: { page: number; per_page: number } }) {
  const { rows, total } = await listCampaignRows(await getDb(), ctx.teamId, input.per_page, offsetOf(input.page, input.per_page));
  return { data: rows.map(toCampaignDto), pagination: paginationMeta(total, input.per_page, input.page) };
}

/** Admin CLI `campaign:add`. The webhook signing secret is returned here once, never by the API. */
export async function createCampaign({ ctx, input }: { ctx: AuthContext; input: CreateCampaignInput }) {
  const parsed = createCampaignInput.parse(input);
  const row = await insertCampaign(await getDb(), {
    teamId: ctx.teamId,
    name: parsed.name,
    webhookUrl: parsed.webhook_url ?? null,
    webhookSecret: parsed.webhook_url ? randomSecret(32) : null,
  });
  return { ...toCampaignDto(row), webhook_url: row.webhookUrl, webhook_secret: row.webhookSecret };
}

/** The team's campaign with this id; another team's campaign answers like a missing one (undefined). */
export async function findCampaignForTeam(teamId: number, id: number): Promise<CampaignRow | undefined> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2147483647) return undefined;
  return findCampaignRow(await getDb(), teamId, id);
}
