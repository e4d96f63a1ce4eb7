import "server-only";
import { randomBytes } from "node:crypto";
import { getDb, transaction, type DbOrTx } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { recordCallerAudit } from "@/lib/audit/service";
import { encryptJson } from "@/lib/crypto/secrets";
import { ApiError } from "@/lib/http/errors";
import { offsetOf, paginationMeta } from "@/lib/http/pagination";
import { deliveryDto } from "@/lib/outgoing-webhooks/deliveries-service";
import { webhookUrlRefusal, webhookUrlRefusalMessage } from "@/lib/outgoing-webhooks/url-policy";
import {
  deleteEndpointRow,
  findDeliveryRow,
  findEndpointRow,
  insertEndpointRow,
  listEndpointDeliveryRows,
  listEndpointRows,
  lockEndpointRow,
  resendDeliveryRow,
  resendFailedRows,
  updateEndpointRow,
  type EndpointRow,
} from "./repo";
import {
  DELIVERY_NOT_FOUND,
  ENDPOINT_DISABLED,
  ENDPOINT_NOT_FOUND,
  type CreateEndpointInput,
  type EndpointWithSecretDto,
  type UpdateEndpointInput,
  type WebhookEndpointDto,
} from "./schemas";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toDto(row: EndpointRow): WebhookEndpointDto {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as WebhookEndpointDto["events"],
    enabled: row.enabled,
    disabled_reason: row.enabled ? null : (row.disabledReason ?? "manual"),
    disabled_at: row.enabled ? null : iso(row.disabledAt),
    failing_since: iso(row.failingSince),
    // Past the overlap the previous secret signs nothing: not shown as rolling either.
    previous_secret_expires_at:
      row.previousSecretExpiresAt && row.previousSecretExpiresAt.getTime() > Date.now() ? iso(row.previousSecretExpiresAt) : null,
    created_by: { kind: row.createdByKind, id: row.createdById, name: row.createdByName },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The fields the audit trail compares (lib/audit/changes.ts); a secret only as "changed". */
const audited = (row: EndpointRow) => ({ url: row.url, description: row.description, events: row.events, enabled: row.enabled });

/** A new signing secret, as Stripe's: a prefix to recognise it and 192 random bits. */
const newSecret = () => `whsec_${randomBytes(24).toString("base64url")}`;

/** The address rule (lib/outgoing-webhooks/url-policy.ts): internal addresses unless the setting allows them. */
function requireAllowedUrl(url: string) {
  const refusal = webhookUrlRefusal(new URL(url));
  if (refusal) throw ApiError.invalid("url", webhookUrlRefusalMessage(refusal, "url"));
}

async function requireEndpoint(db: DbOrTx, ctx: AuthContext, id: number, lock = false): Promise<EndpointRow> {
  const key = { teamId: ctx.teamId, id };
  const row = lock ? await lockEndpointRow(db, key) : await findEndpointRow(db, key);
  if (!row) throw ApiError.notFound(ENDPOINT_NOT_FOUND);
  return row;
}

function creatorOf(ctx: AuthContext) {
  return ctx.actor.kind === "agent"
    ? { createdByKind: "agent" as const, createdById: ctx.actor.agentId, createdByName: ctx.actor.agentName }
    : { createdByKind: "token" as const, createdById: ctx.actor.tokenId, createdByName: `token #${ctx.actor.tokenId}` };
}

export async function listEndpoints({ ctx }: { ctx: AuthContext }): Promise<WebhookEndpointDto[]> {
  return (await listEndpointRows(await getDb(), ctx.teamId)).map(toDto);
}

export async function getEndpoint({ ctx, input }: { ctx: AuthContext; input: { id: number } }): Promise<WebhookEndpointDto> {
  return toDto(await requireEndpoint(await getDb(), ctx, input.id));
}

/** A new endpoint of the caller's team; its signing secret is in this answer and nowhere else in the clear. */
export async function createEndpoint({ ctx, input }: { ctx: AuthContext; input: CreateEndpointInput }): Promise<EndpointWithSecretDto> {
  requireAllowedUrl(input.url);
  const secret = newSecret();
  return transaction(async (tx) => {
    const row = await insertEndpointRow(tx, {
      teamId: ctx.teamId,
      url: input.url,
      description: input.description,
      events: input.events,
      secretEncrypted: encryptJson(secret),
      ...creatorOf(ctx),
    });
    await recordCallerAudit(tx, ctx, {
      action: "webhook_endpoint.created",
      target: { kind: "webhook_endpoint", id: row.id, name: row.url },
      after: { ...audited(row), secret: "set" },
    });
    return { secret, endpoint: toDto(row) };
  });
}

/**
 * Changes an endpoint's URL, description, events or state. Enabling one clears its reason and its
 * failing streak (it gets three fresh days); disabling by hand records the reason `manual`.
 */
export async function updateEndpoint({
  ctx,
  input,
}: {
  ctx: AuthContext;
  input: { id: number; changes: UpdateEndpointInput };
}): Promise<WebhookEndpointDto> {
  const { changes } = input;
  if (changes.url !== undefined) requireAllowedUrl(changes.url);
  return transaction(async (tx) => {
    const before = await requireEndpoint(tx, ctx, input.id, true);
    const state =
      changes.enabled === undefined || changes.enabled === before.enabled
        ? {}
        : changes.enabled
          ? { enabled: true, disabledReason: null, disabledAt: null, failingSince: null }
          : { enabled: false, disabledReason: "manual" as const, disabledAt: new Date() };
    const after = await updateEndpointRow(tx, {
      key: { teamId: ctx.teamId, id: before.id },
      set: { url: changes.url, description: changes.description, events: changes.events, ...state },
    });
    await recordCallerAudit(tx, ctx, {
      action: "webhook_endpoint.updated",
      target: { kind: "webhook_endpoint", id: after.id, name: after.url },
      before: audited(before),
      after: audited(after),
    });
    return toDto(after);
  });
}

/** Deletes an endpoint and its delivery log; what was still queued is never sent. */
export async function deleteEndpoint({ ctx, input }: { ctx: AuthContext; input: { id: number } }): Promise<void> {
  await transaction(async (tx) => {
    const row = await requireEndpoint(tx, ctx, input.id, true);
    await deleteEndpointRow(tx, { teamId: ctx.teamId, id: row.id });
    await recordCallerAudit(tx, ctx, {
      action: "webhook_endpoint.deleted",
      target: { kind: "webhook_endpoint", id: row.id, name: row.url },
      before: audited(row),
    });
  });
}

/**
 * Rolls the signing secret (Stripe's "roll secret"): a new one, in this answer only. For
 * `overlap_hours` more every delivery is signed with both (lib/outgoing-webhooks/endpoint-signing.ts),
 * so the receiver can switch without refusing any; 0 drops the old one at once. Rolling again during
 * an overlap replaces the previous secret with the one being rolled away.
 */
export async function rollEndpointSecret({
  ctx,
  input,
}: {
  ctx: AuthContext;
  input: { id: number; overlapHours: number };
}): Promise<EndpointWithSecretDto> {
  const secret = newSecret();
  return transaction(async (tx) => {
    const old = await requireEndpoint(tx, ctx, input.id, true);
    const expiresAt = input.overlapHours > 0 ? new Date(Date.now() + input.overlapHours * 3_600_000) : null;
    const row = await updateEndpointRow(tx, {
      key: { teamId: ctx.teamId, id: old.id },
      set: {
        secretEncrypted: encryptJson(secret),
        previousSecretEncrypted: expiresAt ? old.secretEncrypted : null,
        previousSecretExpiresAt: expiresAt,
      },
    });
    await recordCallerAudit(tx, ctx, {
      action: "webhook_endpoint.secret_rolled",
      target: { kind: "webhook_endpoint", id: row.id, name: row.url },
      before: { previous_secret_expires_at: null },
      after: { secret: "set", overlap_hours: input.overlapHours, previous_secret_expires_at: iso(expiresAt) },
    });
    return { secret, endpoint: toDto(row) };
  });
}

/** The endpoint's deliveries, newest first: status, attempts, next retry, last answer and its time, payload. */
export async function listEndpointDeliveries({
  ctx,
  input,
}: {
  ctx: AuthContext;
  input: { id: number; page: number; per_page: number; status?: "pending" | "delivered" | "failed" };
}) {
  const db = await getDb();
  await requireEndpoint(db, ctx, input.id);
  const { rows, total } = await listEndpointDeliveryRows(db, {
    key: { teamId: ctx.teamId, id: input.id },
    status: input.status,
    limit: input.per_page,
    offset: offsetOf(input.page, input.per_page),
  });
  return { data: rows.map(deliveryDto), pagination: paginationMeta(total, input.per_page, input.page) };
}

/**
 * Sends one delivery again (any of the team's: an endpoint's, a bot's, a campaign's): due now, with
 * fresh attempts, signed with the secrets of now. Refused for a disabled endpoint, which sends nothing.
 */
export async function resendDelivery({ ctx, input }: { ctx: AuthContext; input: { id: number } }) {
  return transaction(async (tx) => {
    const row = await findDeliveryRow(tx, { teamId: ctx.teamId, id: input.id });
    if (!row) throw ApiError.notFound(DELIVERY_NOT_FOUND);
    if (row.targetKind === "endpoint") {
      const endpoint = await findEndpointRow(tx, { teamId: ctx.teamId, id: row.targetId });
      if (!endpoint?.enabled) throw ApiError.conflict(ENDPOINT_DISABLED);
    }
    const after = await resendDeliveryRow(tx, { teamId: ctx.teamId, id: row.id });
    await recordCallerAudit(tx, ctx, {
      action: "webhook_delivery.resent",
      target: { kind: "webhook_delivery", id: row.id, name: row.event },
      before: { status: row.status },
      after: { status: after.status },
    });
    return deliveryDto(after);
  });
}

/** Every failed delivery of the endpoint made since `since`, due again now; how many. */
export async function resendFailedDeliveries({ ctx, input }: { ctx: AuthContext; input: { id: number; since: string } }) {
  return transaction(async (tx) => {
    const endpoint = await requireEndpoint(tx, ctx, input.id, true);
    if (!endpoint.enabled) throw ApiError.conflict(ENDPOINT_DISABLED);
    const resent = await resendFailedRows(tx, { key: { teamId: ctx.teamId, id: endpoint.id }, since: new Date(input.since) });
    await recordCallerAudit(tx, ctx, {
      action: "webhook_endpoint.failed_resent",
      target: { kind: "webhook_endpoint", id: endpoint.id, name: endpoint.url },
      after: { since: input.since, resent },
    });
    return { resent };
  });
}
