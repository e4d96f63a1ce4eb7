import "server-only";
import { getDb, transaction } from "@/db/client";
import { recordCallerAudit } from "@/lib/audit/service";
import type { AuthContext } from "@/lib/auth/context";
import { NO_WEBHOOK_TO_SIGN } from "@/lib/bots/schemas";
import { randomSecret } from "@/lib/crypto/hash";
import { ApiError } from "@/lib/http/errors";
import { refuseInternalWebhookUrl } from "@/lib/bots/webhook-url";
import { offsetOf, paginationMeta } from "@/lib/http/pagination";
import {
  campaignHasMessages,
  deleteCampaignRow,
  findCampaignRow,
  insertCampaign,
  listCampaignRows,
  lockCampaignRow,
  updateCampaignRow,
  type CampaignRow,
} from "./repo";
import {
  CAMPAIGN_IN_USE,
  CAMPAIGN_NOT_FOUND,
  createCampaignInput,
  updateCampaignInput,
  type CampaignDto,
  type CampaignSettingsDto,
  type CreateCampaignInput,
  type UpdateCampaignInput,
} from "./schemas";

export function toCampaignDto(row: CampaignRow): CampaignDto {
  return { id: row.id, name: row.name };
}

export function toCampaignSettingsDto(row: CampaignRow): CampaignSettingsDto {
  return {
    ...toCampaignDto(row),
    webhook_url: row.webhookUrl,
    has_webhook_secret: row.webhookSecret !== null,
    created_at: row.createdAt.toISOString(),
  };
}

/** What the audit trail compares; the secret's value never reaches it (lib/audit/changes.ts), only that it changed. */
function audited(row: CampaignRow) {
  return { name: row.name, webhook_url: row.webhookUrl, webhook_secret: row.webhookSecret };
}

const target = (row: CampaignRow) => ({ kind: "campaign", id: row.id, name: row.name });

export async function listCampaigns({ ctx, input }: { ctx: AuthContext; input: { page: number; per_page: number } }) {
  const { rows, total } = await listCampaignRows(await getDb(), {
    teamId: ctx.teamId,
    limit: input.per_page,
    offset: offsetOf(input.page, input.per_page),
  });
  return { data: rows.map(toCampaignDto), pagination: paginationMeta(total, input.per_page, input.page) };
}

/**
 * `POST /api/v1/campaigns` and the admin CLI's `campaign:add`. The webhook signing secret is
 * returned here once, and again only when rotated.
 */
export async function createCampaign({ ctx, input }: { ctx: AuthContext; input: CreateCampaignInput }) {
  const parsed = createCampaignInput.parse(input);
  refuseInternalWebhookUrl(parsed.webhook_url);
  const row = await transaction(async (tx) => {
    const row = await insertCampaign(tx, {
      teamId: ctx.teamId,
      name: parsed.name,
      webhookUrl: parsed.webhook_url ?? null,
      webhookSecret: parsed.webhook_url ? randomSecret(32) : null,
    });
    await recordCallerAudit(tx, ctx, { action: "campaign.created", target: target(row), after: audited(row) });
    return row;
  });
  return { ...toCampaignSettingsDto(row), webhook_secret: row.webhookSecret };
}

/** Renames a campaign or changes its webhook URL (a first URL gets a secret, returned this once). */
export async function updateCampaign({ ctx, input }: { ctx: AuthContext; input: UpdateCampaignInput & { id: number } }) {
  const parsed = updateCampaignInput.parse(input);
  refuseInternalWebhookUrl(parsed.webhook_url);
  return transaction(async (tx) => {
    const before = await lockCampaignRow(tx, { teamId: ctx.teamId, id: input.id });
    if (!before) throw ApiError.notFound(CAMPAIGN_NOT_FOUND);
    const patch: Parameters<typeof updateCampaignRow>[1]["patch"] = {};
    if (parsed.name !== undefined) patch.name = parsed.name;
    let newSecret: string | null = null;
    if (parsed.webhook_url !== undefined) {
      patch.webhookUrl = parsed.webhook_url;
      if (parsed.webhook_url === null) patch.webhookSecret = null;
      else if (!before.webhookSecret) patch.webhookSecret = newSecret = randomSecret(32);
    }
    const row = Object.keys(patch).length ? await updateCampaignRow(tx, { teamId: ctx.teamId, id: before.id, patch }) : before;
    await recordCallerAudit(tx, ctx, { action: "campaign.updated", target: target(row), before: audited(before), after: audited(row) });
    return { ...toCampaignSettingsDto(row), webhook_secret: newSecret };
  });
}

/** A new signing secret for the campaign's webhook, returned this once. */
export async function rotateCampaignSecret({ ctx, input }: { ctx: AuthContext; input: { id: number } }) {
  return transaction(async (tx) => {
    const before = await lockCampaignRow(tx, { teamId: ctx.teamId, id: input.id });
    if (!before) throw ApiError.notFound(CAMPAIGN_NOT_FOUND);
    if (!before.webhookUrl) throw ApiError.conflict(NO_WEBHOOK_TO_SIGN);
    const row = await updateCampaignRow(tx, { teamId: ctx.teamId, id: before.id, patch: { webhookSecret: randomSecret(32) } });
    await recordCallerAudit(tx, ctx, {
      action: "campaign.secret_rotated",
      target: target(row),
      before: audited(before),
      after: audited(row),
    });
    return { ...toCampaignSettingsDto(row), webhook_secret: row.webhookSecret };
  });
}

/** Deletes a campaign no message names (409 otherwise: the messages keep their routing). */
export async function deleteCampaign({ ctx, input }: { ctx: AuthContext; input: { id: number } }) {
  return transaction(async (tx) => {
    const before = await lockCampaignRow(tx, { teamId: ctx.teamId, id: input.id });
    if (!before) throw ApiError.notFound(CAMPAIGN_NOT_FOUND);
    if (await campaignHasMessages(tx, { teamId: ctx.teamId, id: before.id })) throw ApiError.conflict(CAMPAIGN_IN_USE);
    await deleteCampaignRow(tx, { teamId: ctx.teamId, id: before.id });
    await recordCallerAudit(tx, ctx, { action: "campaign.deleted", target: target(before), before: audited(before) });
    return toCampaignSettingsDto(before);
  });
}

/** Every campaign of the team as its settings show them (the routing page), oldest first. */
export async function listCampaignSettings(teamId: number): Promise<CampaignSettingsDto[]> {
  const { rows } = await listCampaignRows(await getDb(), { teamId, limit: 1000, offset: 0 });
  return rows.map(toCampaignSettingsDto);
}

/** The team's campaign with this id; another team's campaign answers like a missing one (undefined). */
export async function findCampaignForTeam(teamId: number, id: number): Promise<CampaignRow | undefined> {
  if (!Number.isSafeInteger(id) || id < 1 || id > 2147483647) return undefined;
  return findCampaignRow(await getDb(), { teamId, id });
}
