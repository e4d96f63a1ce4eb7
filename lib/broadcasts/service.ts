import "server-only";
import { getDb, transaction } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError } from "@/lib/http/errors";
import { claimOrReplay, findReplay, type Idempotency } from "@/lib/idempotency/service";
import { offsetOf, paginationMeta } from "@/lib/http/pagination";
import { checkAudienceLabels } from "@/lib/audiences/service";
import { resolveMedia } from "@/lib/messages/send-media";
import { resolveParams } from "@/lib/messages/send-params";
import { resolveSendTarget } from "@/lib/messages/send-service";
import { findNumber } from "@/lib/numbers/repo";
import { NUMBER_NOT_FOUND } from "@/lib/numbers/settings-schemas";
import { enqueueAudience } from "./enqueue";
import { previewPlan } from "./messaging-limit";
import { toDtos } from "./dtos";
import { requestTransition, type RequestedTransition } from "./lifecycle";
import { findBroadcast, insertBroadcast, listBroadcastRows, type BroadcastRow } from "./repo";
import {
  BROADCAST_CANCELLED,
  BROADCAST_NOT_FOUND,
  BROADCAST_PAUSED,
  BROADCAST_RESUMED,
  LANGUAGE_MISMATCH,
  broadcastCreated,
  type BroadcastDto,
  type CreateBroadcastInput,
  type ListBroadcastsQuery,
  type MessagingLimitPreviewQuery,
} from "./schemas";

/** What an Idempotency-Key stores for a broadcast: its id; a replay answers the broadcast as it is now. */
type StoredCreate = { broadcast_id: number };

/** The answer to a create, first or replayed: the broadcast now, and its recipients so far. */
async function created(teamId: number, id: number, totals?: { queued: number; rejected: number }) {
  const data = await getOne(teamId, id);
  const { queued, rejected } = totals ?? { queued: data.counts.recipients - data.counts.rejected, rejected: data.counts.rejected };
  return { message: broadcastCreated(queued, rejected), data };
}

/** Rolls back a create whose Idempotency-Key a concurrent request took first. */
class KeyTaken {
  constructor(readonly broadcastId: number) {}
}

/**
 * POST /api/v1/broadcasts. The shared fields are checked once, in the order and with the texts of
 * a single send (4.1: number, template, bot, campaign, parameters, media), then the audience; the
 * broadcast is created and its audience enqueued batch by batch (enqueue.ts), each recipient
 * checked on its own. Answers once every recipient is queued or rejected. With an Idempotency-Key,
 * the key is claimed in the transaction that creates the broadcast: a retry (or a concurrent
 * twin) answers the first broadcast and creates and enqueues nothing.
 */
export async function createBroadcast({
  ctx,
  input,
  idempotency = null,
}: {
  ctx: AuthContext;
  input: CreateBroadcastInput;
  idempotency?: Idempotency | null;
}): Promise<{ message: string; data: BroadcastDto; replayed: boolean }> {
  const earlier = await findReplay(ctx.teamId, idempotency);
  if (earlier) return { ...(await created(ctx.teamId, (earlier.body as StoredCreate).broadcast_id)), replayed: true };

  const shared = { ...input, sent_group: input.sent_group ?? input.name };
  const { number, template } = await resolveSendTarget(ctx, shared);
  if (input.language && input.language !== template.language) {
    throw ApiError.invalid("language", LANGUAGE_MISMATCH(template.name, input.language));
  }
  // The keys against the template (values may hold columns: filled and checked per recipient).
  resolveParams(template.components, {
    header_param: input.header_param,
    body_params: input.body_params,
    button_params: input.button_params,
  });
  const media = await resolveMedia(ctx.teamId, template, input.media_path);
  await checkAudienceLabels(ctx.teamId, input.audience);

  const scheduled = input.scheduled_at && input.scheduled_at.getTime() > Date.now() ? input.scheduled_at : null;
  const agent = ctx.actor.kind === "agent" ? ctx.actor : null;
  let row: BroadcastRow;
  try {
    row = await transaction(async (tx) => {
      const inserted = await insertBroadcast(tx, {
        teamId: ctx.teamId,
        waNumberId: number.id,
        templateId: template.id,
        name: input.name,
        status: scheduled ? "SCHEDULED" : "SENDING",
        audience: input.audience,
        send: {
          header_param: input.header_param ?? null,
          body_params: input.body_params,
          ...(input.button_params.length ? { button_params: input.button_params } : {}),
          media_path: media?.path ?? null,
          response_handler: input.response_handler,
          campaign_id: input.campaign_id ?? null,
          bot_id: input.bot_id ?? null,
        },
        sentGroup: shared.sent_group,
        scheduledAt: scheduled,
        startedAt: scheduled ? null : new Date(),
        createdByAgentId: agent?.agentId ?? null,
        createdByAgentName: agent?.agentName ?? null,
      });
      if (idempotency) {
        const stored: StoredCreate = { broadcast_id: inserted.id };
        const replay = await claimOrReplay(tx, ctx.teamId, idempotency, { status: 201, body: stored });
        if (replay) throw new KeyTaken((replay.body as StoredCreate).broadcast_id);
      }
      // No broadcast.updated yet: its counts would all be zero. enqueueAudience announces the real
      // ones as batches land and once the whole audience is in.
      return inserted;
    });
  } catch (err) {
    if (err instanceof KeyTaken) return { ...(await created(ctx.teamId, err.broadcastId)), replayed: true };
    throw err;
  }
  const totals = await enqueueAudience(ctx, row, { number, template, media });
  return { ...(await created(ctx.teamId, row.id, totals)), replayed: false };
}

/** A broadcast as stored, with its counts. A read changes nothing: the lifecycle's sweep moves states (lifecycle.ts). */
async function getOne(teamId: number, id: number): Promise<BroadcastDto> {
  const db = await getDb();
  const row = await findBroadcast(db, { teamId, id });
  if (!row) throw ApiError.notFound(BROADCAST_NOT_FOUND);
  const [dto] = await toDtos(db, teamId, [row]);
  return dto;
}

export async function getBroadcast({ ctx, input }: { ctx: AuthContext; input: { id: number } }): Promise<BroadcastDto> {
  return getOne(ctx.teamId, input.id);
}

export async function listBroadcasts({ ctx, input }: { ctx: AuthContext; input: ListBroadcastsQuery }) {
  const db = await getDb();
  const { rows, total } = await listBroadcastRows(db, {
    teamId: ctx.teamId,
    limit: input.per_page,
    offset: offsetOf(input.page, input.per_page),
  });
  return { data: await toDtos(db, ctx.teamId, rows), pagination: paginationMeta(total, input.per_page, input.page) };
}

const ANSWERS: Record<RequestedTransition, string> = {
  pause: BROADCAST_PAUSED,
  resume: BROADCAST_RESUMED,
  cancel: BROADCAST_CANCELLED,
};

/** A lifecycle change asked for (lifecycle.ts requestTransition), answered with the broadcast after it. */
async function transition(ctx: AuthContext, id: number, name: RequestedTransition) {
  await requestTransition(ctx.teamId, id, name);
  return { message: ANSWERS[name], data: await getOne(ctx.teamId, id) };
}

/** POST …/pause: SCHEDULED or SENDING → PAUSED. */
export const pauseBroadcast = ({ ctx, input }: { ctx: AuthContext; input: { id: number } }) => transition(ctx, input.id, "pause");

/** POST …/resume: PAUSED → SENDING (or SCHEDULED if its time has not come). */
export const resumeBroadcast = ({ ctx, input }: { ctx: AuthContext; input: { id: number } }) => transition(ctx, input.id, "resume");

/** POST …/cancel: SCHEDULED, SENDING or PAUSED → CANCELLED. */
export const cancelBroadcast = ({ ctx, input }: { ctx: AuthContext; input: { id: number } }) => transition(ctx, input.id, "cancel");

/** The broadcast of the team, or 404 (another team's id reads as missing). */
export async function requireBroadcast(teamId: number, id: number): Promise<BroadcastRow> {
  const row = await findBroadcast(await getDb(), { teamId, id });
  if (!row) throw ApiError.notFound(BROADCAST_NOT_FOUND);
  return row;
}

/** GET /api/v1/broadcasts/messaging-limit: the number's budget and the waves a broadcast of that size would take. */
export async function previewMessagingLimit({ ctx, input }: { ctx: AuthContext; input: MessagingLimitPreviewQuery }) {
  const number = await findNumber(await getDb(), { teamId: ctx.teamId, number: input.wa_number });
  if (!number) throw ApiError.notFound(NUMBER_NOT_FOUND);
  return previewPlan({
    teamId: ctx.teamId,
    waNumberId: number.id,
    tier: number.messagingLimitTier,
    recipients: input.recipients,
    startAt: input.scheduled_at ? new Date(input.scheduled_at) : null,
  });
}
