import "server-only";
import type { DbOrTx } from "@/db/client";
import type { AccountUpdate } from "@/lib/channels/cloud-api/account-webhook";
import { tierChanged } from "@/lib/broadcasts/messaging-limit";
import { insertEvents } from "@/lib/events/repo";
import { storableJson } from "@/lib/http/storable";
import { insertNumberHealthChange, lockNumbersHealth, numberHealthChangeKept, updateNumberHealth } from "./health-repo";

/**
 * Meta's number webhooks applied to the team's numbers, at once, in the caller's transaction
 * (lib/meta-webhooks/account-updates.ts opens one per item; docs/features/templates-and-number-health.md):
 *
 * - `phone_number_quality_update`: the messaging limit tier (`max_daily_conversations_per_business`,
 *   else `current_limit`) and the quality rating its event implies: FLAGGED is Meta's "quality is
 *   low" (RED); UNFLAGGED says only that it is no longer low (UNKNOWN until Meta says more);
 *   other events (UPGRADE, DOWNGRADE, ONBOARDING, THROUGHPUT_UPGRADE…) leave the rating as it is.
 * - `account_update`: the business account's event (ACCOUNT_VIOLATION, DISABLED_UPDATE…), kept
 *   as the number's last health event.
 *
 * The number the item names (`display_phone_number`, `phone_number`) must be one of the business
 * account's numbers of the team; an item that names none applies to all of them (messaging limits
 * are shared by a business portfolio's numbers). Each number that changes gets a
 * `number_health_changes` row and a `number.health` event; a replay that changes nothing writes nothing.
 */

type NumberUpdate = Extract<AccountUpdate, { kind: "number_quality" | "account" }>;
export type HealthOutcome = "applied" | "unchanged" | { setAside: string };

const QUALITY_OF_EVENT: Record<string, string> = { FLAGGED: "RED", UNFLAGGED: "UNKNOWN" };

export async function applyNumberHealth(
  tx: DbOrTx,
  at: { teamId: number; numbers: { id: number; number: string }[] },
  update: NumberUpdate,
  meta: { at: Date | null; raw: unknown },
): Promise<HealthOutcome> {
  const field = update.kind === "account" ? "account_update" : "phone_number_quality_update";
  const targets = update.displayNumber ? at.numbers.filter((n) => n.number === update.displayNumber) : at.numbers;
  if (!targets.length) return { setAside: `${field}: no number ${update.displayNumber} in this business account` };
  let applied = 0;
  for (const n of await lockNumbersHealth(tx, { teamId: at.teamId, ids: targets.map((t) => t.id) })) {
    const quality = update.kind === "number_quality" ? (QUALITY_OF_EVENT[update.event] ?? n.qualityRating) : n.qualityRating;
    const tier = update.kind === "number_quality" ? (update.tier ?? n.messagingLimitTier) : n.messagingLimitTier;
    // A redelivery (the same event at the same Meta time) is kept once; so is an item that changes
    // nothing (an account event changes no rating: once in a row when Meta gives no time).
    if (meta.at && (await numberHealthChangeKept(tx, { teamId: at.teamId, waNumberId: n.id, event: update.event, metaAt: meta.at })))
      continue;
    const same = quality === n.qualityRating && tier === n.messagingLimitTier && n.healthEvent === update.event;
    if (same && (update.kind !== "account" || !meta.at)) continue;
    await updateNumberHealth(tx, {
      teamId: at.teamId,
      id: n.id,
      values: { qualityRating: quality, messagingLimitTier: tier, healthEvent: update.event },
    });
    // A tier Meta raised lets what waits for room go at once (the gate recounts: a lower one holds it again).
    if (tier !== n.messagingLimitTier) await tierChanged(tx, { teamId: at.teamId, waNumberId: n.id });
    await insertNumberHealthChange(tx, {
      teamId: at.teamId,
      waNumberId: n.id,
      field,
      event: update.event,
      previousQualityRating: n.qualityRating,
      qualityRating: quality,
      previousMessagingLimitTier: update.kind === "number_quality" ? (update.previousTier ?? n.messagingLimitTier) : n.messagingLimitTier,
      messagingLimitTier: tier,
      metaAt: meta.at,
      raw: storableJson(meta.raw),
    });
    await insertEvents(tx, [
      {
        teamId: at.teamId,
        type: "number.health",
        waNumberId: n.id,
        data: { wa_number: n.number, quality_rating: quality, messaging_limit_tier: tier, event: update.event, field },
      },
    ]);
    applied++;
  }
  return applied ? "applied" : "unchanged";
}
