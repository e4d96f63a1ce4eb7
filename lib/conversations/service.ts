import "server-only";
import { getDb, transaction, withReadDb, type Db, type DbOrTx } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError } from "@/lib/http/errors";
import { isSupportedInstant } from "@/lib/http/supported-dates";
import { requireNumber } from "@/lib/numbers/service";
import { requireTeamLabels, toLabelDto } from "@/lib/labels/service";
import { insertEvents } from "@/lib/events/repo";
import type { EventData } from "@/lib/events/catalogue";
import { REPLY_WINDOW_HOURS } from "@/db/schema/conversations";
import {
  enqueueReadReceipt,
  findConversationRow,
  listConversationRows,
  lockConversation,
  teamAgentExists,
  unassignOpenConversations,
  updateConversationRow,
  type ConversationFilter,
  type ConversationRow,
} from "./repo";
import { messagePreview } from "./preview";
import {
  ASSIGNEE_INVALID,
  CONVERSATION_NOT_FOUND,
  CURSOR_INVALID,
  type ConversationDto,
  type ListConversationsQuery,
  type UpdateConversationInput,
} from "./schemas";

const REPLY_WINDOW_MS = REPLY_WINDOW_HOURS * 3600_000;

// The cursor is the last row's position (activity time, id), opaque to clients.
function encodeCursor(row: ConversationRow): string {
  return Buffer.from(JSON.stringify([row.activityCursor, row.id])).toString("base64url");
}

function decodeCursor(cursor: string): { at: string; id: number } {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [unknown, unknown];
    const date = new Date(String(at));
    // An instant outside the supported calendar (lib/http/supported-dates.ts) is no cursor of ours.
    if (typeof at === "string" && isSupportedInstant(date.getTime()) && Number.isSafeInteger(id) && (id as number) > 0)
      // The server's own format (microseconds) passes as it is; anything else parseable is normalized.
      return { at: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$/.test(at) ? at : date.toISOString(), id: id as number };
  } catch {}
  throw ApiError.invalid("cursor", CURSOR_INVALID);
}

function toDto(row: ConversationRow): ConversationDto {
  const lastInbound = row.lastInboundAt;
  return {
    id: row.id,
    wa_number: row.waNumber,
    contact: {
      id: row.contactId,
      name: row.contactName,
      customer_number: row.customerNumber,
      customer_id: row.customerId,
      labels: row.labels.map(toLabelDto),
      marketing_opt_out: row.marketingOptedOutAt
        ? { at: row.marketingOptedOutAt.toISOString(), reason: row.marketingOptOutReason ?? "agent" }
        : null,
    },
    last_message: {
      id: row.message.id,
      update_id: row.message.updateId,
      type: row.message.type,
      direction: row.message.direction,
      sender: row.message.sender,
      status: row.message.status,
      created_at: row.message.createdAt.toISOString(),
      preview: messagePreview(row.message.type, row.message.payload),
    },
    unread_count: row.unreadCount,
    last_inbound_at: lastInbound?.toISOString() ?? null,
    window_expires_at: lastInbound ? new Date(lastInbound.getTime() + REPLY_WINDOW_MS).toISOString() : null,
    assignee_agent_id: row.assigneeAgentId,
    status: row.status,
    waiting_since: row.waitingSince?.toISOString() ?? null,
    opened_at: row.openedAt.toISOString(),
    first_response_seconds: row.firstResponseSeconds,
    resolved_at: row.resolvedAt?.toISOString() ?? null,
  };
}

function agentIdOf(ctx: AuthContext): number | null {
  return ctx.actor.kind === "agent" ? ctx.actor.agentId : null;
}

/** The team's conversations, newest activity first, one page at a time (opaque cursor). */
export async function listConversations({ ctx, input }: { ctx: AuthContext; input: ListConversationsQuery }) {
  const filter: ConversationFilter = {
    labelIds: await requireTeamLabels(ctx.teamId, input.label_id),
    needsReply: input.needs_reply,
    unread: input.unread,
    search: input.search || undefined,
    status: input.status,
    outboundOnly: input.outbound_only,
    order: input.order,
  };
  if (input.wa_number) filter.waNumberId = (await requireNumber(ctx, input.wa_number)).id;
  if (input.assignee === "none") filter.assigneeAgentId = null;
  else if (input.assignee === "me") {
    // An API token is not an agent, so it has no "mine".
    const me = agentIdOf(ctx);
    if (me === null) throw ApiError.invalid("assignee", "assignee=me requiere una sesión de agente.");
    filter.assigneeAgentId = me;
  } else if (typeof input.assignee === "number") filter.assigneeAgentId = input.assignee;
  if (input.cursor) filter.before = decodeCursor(input.cursor);

  const rows = await withReadDb(ctx.teamId, (db) => listConversationRows(db, { teamId: ctx.teamId, filter, limit: input.per_page + 1 }));
  const page = rows.slice(0, input.per_page);
  return {
    data: page.map(toDto),
    next_cursor: rows.length > input.per_page ? encodeCursor(page[page.length - 1]) : null,
  };
}

/** `from`: "replica" for a plain read; the primary (default) right after this request's own write. */
async function loadDto(ctx: AuthContext, id: number, from?: "replica"): Promise<ConversationDto> {
  const find = (db: Db) => findConversationRow(db, { teamId: ctx.teamId, id });
  const row = from === "replica" ? await withReadDb(ctx.teamId, find) : await find(await getDb());
  if (!row) throw ApiError.notFound(CONVERSATION_NOT_FOUND);
  return toDto(row);
}

export async function getConversation({ ctx, input }: { ctx: AuthContext; input: { id: number } }): Promise<ConversationDto> {
  return loadDto(ctx, input.id, "replica");
}

/**
 * Sets the unread count to 0 and tells every screen (conversation.read). On a cloud_api number it
 * also queues the read receipt at Meta for the newest inbound message, in the same transaction;
 * the delivery worker sends it (lib/delivery/read-receipts.ts), never this request.
 */
export async function markConversationRead({ ctx, input }: { ctx: AuthContext; input: { id: number } }): Promise<ConversationDto> {
  await transaction(async (tx) => {
    const row = await lockConversation(tx, { teamId: ctx.teamId, id: input.id });
    if (!row) throw ApiError.notFound(CONVERSATION_NOT_FOUND);
    await enqueueReadReceipt(tx, { teamId: ctx.teamId, conversationId: row.id });
    if (row.unreadCount === 0) return;
    await updateConversationRow(tx, { teamId: ctx.teamId, id: row.id, set: { unreadCount: 0 } });
    await insertEvents(tx, [
      {
        teamId: ctx.teamId,
        type: "conversation.read",
        waNumberId: row.waNumberId,
        contactId: row.contactId,
        data: { id: row.id, unread_count: 0 },
      },
    ]);
  });
  return loadDto(ctx, input.id);
}

/** Assigns (or unassigns) and opens or resolves a conversation; streams conversation.updated. */
export async function updateConversation({
  ctx,
  input,
}: {
  ctx: AuthContext;
  input: { id: number } & UpdateConversationInput;
}): Promise<ConversationDto> {
  await transaction(async (tx) => {
    const row = await lockConversation(tx, { teamId: ctx.teamId, id: input.id });
    if (!row) throw ApiError.notFound(CONVERSATION_NOT_FOUND);
    if (input.assignee_agent_id != null && !(await teamAgentExists(tx, { teamId: ctx.teamId, agentId: input.assignee_agent_id }))) {
      throw ApiError.invalid("assignee_agent_id", ASSIGNEE_INVALID);
    }
    const set: Parameters<typeof updateConversationRow>[1]["set"] = {};
    if (input.assignee_agent_id !== undefined) set.assigneeAgentId = input.assignee_agent_id;
    if (input.status !== undefined) set.status = input.status;
    await updateConversationRow(tx, { teamId: ctx.teamId, id: row.id, set });
    const data: EventData<"conversation.updated"> = { id: row.id };
    if (input.assignee_agent_id !== undefined) data.assignee_agent_id = input.assignee_agent_id;
    if (input.status !== undefined) data.status = input.status;
    await insertEvents(tx, [
      { teamId: ctx.teamId, type: "conversation.updated", waNumberId: row.waNumberId, contactId: row.contactId, data },
    ]);
  });
  return loadDto(ctx, input.id);
}

/**
 * In the caller's transaction (an agent's deactivation, lib/agents/service.ts): the agent's open
 * conversations become unassigned, each with its `conversation.updated`, so every open inbox moves
 * them to "unassigned" at once. Returns how many.
 */
export async function unassignAgentConversations(tx: DbOrTx, { teamId, agentId }: { teamId: number; agentId: number }): Promise<number> {
  const rows = await unassignOpenConversations(tx, { teamId, agentId });
  await insertEvents(
    tx,
    rows.map((r) => ({
      teamId,
      type: "conversation.updated" as const,
      waNumberId: r.waNumberId,
      contactId: r.contactId,
      data: { id: r.id, assignee_agent_id: null },
    })),
  );
  return rows.length;
}
