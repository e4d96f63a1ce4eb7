import { getDb } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { withSecrets } from "@/lib/channels/credentials";
import { ApiError } from "@/lib/http/errors";
import { toHistoryRecord } from "@/lib/messages/record";
import { adapterFor } from "./channels";
import { statusHistoryOf, findUpdate, findUpdateIdOf } from "./updates-repo";
import type { UpdateDto } from "./updates-schemas";

export const UPDATE_NOT_FOUND = "La actualización no existe.";
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function requireUpdate(ctx: AuthContext, updateId: string) {
  const found = UUID_RE.test(updateId)
    ? await findUpdate(await getDb(), { teamId: ctx.teamId, updateId: updateId.toLowerCase() })
    : undefined;
  if (!found) throw ApiError.notFound(UPDATE_NOT_FOUND);
  return found;
}

/** A message with its routing decision, provider error and status trail (team-scoped). */
export async function getUpdate({ ctx, input }: { ctx: AuthContext; input: { update_id: string } }): Promise<UpdateDto> {
  const { message: m, number } = await requireUpdate(ctx, input.update_id);
  const db = await getDb();
  const [history, replyTo] = await Promise.all([
    statusHistoryOf(db, { teamId: ctx.teamId, messageId: m.id }),
    m.replyToMessageId ? findUpdateIdOf(db, { teamId: ctx.teamId, messageId: m.replyToMessageId }) : Promise.resolve(null),
  ]);
  return {
    ...toHistoryRecord(m),
    update_id: m.updateId,
    wa_number: number.number,
    provider_message_id: m.providerMessageId,
    reply_to_update_id: replyTo,
    routed_to: m.routedTo ?? null,
    error: m.error ? { code: m.error.code ?? null, title: m.error.title, details: m.error.details ?? null } : null,
    attempts: m.attempts,
    events: history.map((e) => ({ status: e.status, applied: e.applied === 1, at: new Date(e.at).toISOString(), raw: e.raw ?? null })),
  };
}

/**
 * The attachment of an inbound Cloud API message, fetched from Graph with the number's token
 * and streamed through: the dashboard shows customer media with no public URL anywhere.
 */
export async function getUpdateMedia({ ctx, input }: { ctx: AuthContext; input: { update_id: string } }) {
  const { message: m, number } = await requireUpdate(ctx, input.update_id);
  const payload = m.payload as Record<string, unknown> | null;
  const mediaId = payload && !Array.isArray(payload) && typeof payload.id === "string" ? payload.id : null;
  const adapter = adapterFor(number.provider);
  if (m.direction !== "INBOUND" || !adapter.downloadMedia || !mediaId) throw ApiError.notFound(UPDATE_NOT_FOUND);
  const media = await adapter.downloadMedia(withSecrets(number), mediaId);
  if (!media) throw new ApiError(502, "No se pudo obtener el archivo del canal.");
  return media;
}
