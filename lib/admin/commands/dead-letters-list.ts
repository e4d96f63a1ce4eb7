import { getDb } from "@/db/client";
import { z } from "@/lib/http/zod-es";
import { listDeadLetters } from "@/lib/meta-webhooks/dead-letters-repo";
import { listParked } from "@/lib/delivery/parked-statuses-repo";
import { intFlag } from "../flags";
import type { AdminCommand } from "../types";

/**
 * `npm run admin -- dead-letters:list [--team ID] [--limit N] [--before ID]`: the webhook items set
 * aside (newest first) with their reason and raw JSON, for an operator to inspect or replay.
 * Without --team it lists every team's and those tied to no number of ours. Beside them, the
 * status webhooks still parked (answered 200, not applicable yet: lib/delivery/parked-statuses.ts),
 * oldest first, with why they wait; one whose message never appears becomes an `expired` dead
 * letter after 7 days.
 */
export const deadLettersList: AdminCommand = {
  summary:
    "Lista los elementos de webhooks apartados (webhook_dead_letters), los más recientes primero: [--team ID] [--limit N] [--before ID]",
  options: { team: { type: "string" }, limit: { type: "string" }, before: { type: "string" } },
  run: async (flags) => {
    const f = z
      .object({ team: intFlag("team").optional(), limit: intFlag("limit").optional(), before: intFlag("before").optional() })
      .parse(flags);
    const rows = await listDeadLetters(await getDb(), { teamId: f.team, limit: Math.min(f.limit ?? 50, 500), beforeId: f.before });
    const parked = await listParked({ teamId: f.team, limit: Math.min(f.limit ?? 50, 500) });
    return {
      parked_statuses: parked.map((p) => ({
        id: p.id,
        team_id: p.teamId,
        wa_number_id: p.waNumberId,
        received_at: p.receivedAt.toISOString(),
        provider_message_id: p.providerMessageId,
        status: p.status,
        reason: p.reason,
        attempts: p.attempts,
        next_attempt_at: p.nextAttemptAt.toISOString(),
      })),
      dead_letters: rows.map((r) => ({
        id: r.id,
        team_id: r.teamId,
        wa_number_id: r.waNumberId,
        received_at: r.receivedAt.toISOString(),
        source: r.source,
        kind: r.kind,
        reason: r.reason,
        raw: r.raw,
      })),
    };
  },
};
