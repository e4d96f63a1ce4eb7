import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type DbOrTx } from "@/db/client";
import { webhookDeliveries, webhookEndpoints } from "@/db/schema";

/** How long an endpoint may fail without one success before it is disabled (docs/features/outgoing-webhooks.md). */
export const FAILING_DAYS = 3;

const endpointsOf = (deliveryIds: number[]) => sql`(
  SELECT DISTINCT target_id FROM ${webhookDeliveries}
  WHERE id = ANY(${`{${deliveryIds.join(",")}}`}::int[]) AND target_kind = 'endpoint')`;

/** A 2xx from an endpoint ends its failing streak. */
export async function clearFailingStreaks(db: DbOrTx, deliveryIds: number[]): Promise<void> {
  if (!deliveryIds.length) return;
  await db.execute(sql`
    UPDATE ${webhookEndpoints} SET failing_since = NULL
    WHERE failing_since IS NOT NULL AND id IN ${endpointsOf(deliveryIds)}`);
}

/**
 * A failed attempt starts the endpoint's failing streak if none is running, and disables every
 * enabled endpoint among them whose streak is FAILING_DAYS old. Returns those it disabled.
 */
export async function extendFailingStreaks(
  db: DbOrTx,
  deliveryIds: number[],
): Promise<{ id: number; team_id: number; url: string; failing_since: string }[]> {
  if (!deliveryIds.length) return [];
  await db.execute(sql`
    UPDATE ${webhookEndpoints} SET failing_since = now()
    WHERE failing_since IS NULL AND id IN ${endpointsOf(deliveryIds)}`);
  const res = await db.execute(sql`
    UPDATE ${webhookEndpoints}
    SET enabled = false, disabled_reason = 'failing', disabled_at = now(), updated_at = now()
    WHERE enabled AND failing_since <= now() - make_interval(days => ${FAILING_DAYS})
      AND id IN ${endpointsOf(deliveryIds)}
    RETURNING id, team_id, url, failing_since::text`);
  return rowsOf<{ id: number; team_id: number; url: string; failing_since: string }>(res).map((r) => ({
    ...r,
    id: Number(r.id),
    team_id: Number(r.team_id),
  }));
}
