import "server-only";
import type { DbOrTx } from "@/db/client";
import { recordAudit } from "@/lib/audit/service";
import { clearFailingStreaks, extendFailingStreaks } from "./endpoint-health-repo";

/** Delivered: the endpoints answered, their failing streaks end (in the settle's transaction). */
export async function markEndpointsAnswered(db: DbOrTx, deliveryIds: number[]): Promise<void> {
  await clearFailingStreaks(db, deliveryIds);
}

/**
 * Retried or failed: the endpoints' failing streaks go on, and one that failed without a success
 * for three days is disabled, with the reason the page and the API show and an audit row by the system.
 */
export async function markEndpointsFailing(db: DbOrTx, deliveryIds: number[]): Promise<void> {
  for (const e of await extendFailingStreaks(db, deliveryIds)) {
    await recordAudit(db, {
      teamId: e.team_id,
      actor: { kind: "system", name: "webhooks" },
      action: "webhook_endpoint.disabled",
      target: { kind: "webhook_endpoint", id: e.id, name: e.url },
      before: { enabled: true, disabled_reason: null },
      after: { enabled: false, disabled_reason: "failing", failing_since: e.failing_since },
    });
  }
}
