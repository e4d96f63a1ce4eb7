import { getDb } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { offsetOf, paginationMeta } from "@/lib/http/pagination";
import { listDeliveryRows, type DeliveryRow } from "./deliveries-repo";
import type { WebhookDeliveryDto } from "./schemas";

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export function deliveryDto(r: DeliveryRow): WebhookDeliveryDto {
  return {
    id: r.id,
    event: r.event,
    target_kind: r.targetKind,
    target_id: r.targetId,
    url: r.url,
    status: r.status,
    attempts: r.attempts,
    last_status_code: r.lastStatusCode,
    last_error: r.lastError,
    next_attempt_at: iso(r.nextAttemptAt)!,
    last_attempt_at: iso(r.lastAttemptAt),
    last_duration_ms: r.lastDurationMs,
    created_at: iso(r.createdAt)!,
    delivered_at: iso(r.deliveredAt),
    payload: r.payload,
  };
}

/** The team's outgoing webhook deliveries, newest first, with each one's attempts and last answer. */
export async function listWebhookDeliveries({ ctx, input }: { ctx: AuthContext; input: { page: number; per_page: number } }) {
  const { rows, total } = await listDeliveryRows(await getDb(), {
    teamId: ctx.teamId,
    limit: input.per_page,
    offset: offsetOf(input.page, input.per_page),
  });
  return { data: rows.map(deliveryDto), pagination: paginationMeta(total, input.per_page, input.page) };
}
