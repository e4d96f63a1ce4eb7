import "server-only";
import type { DbOrTx } from "@/db/client";
import type { AccountUpdate } from "@/lib/channels/cloud-api/account-webhook";
import { storableJson } from "@/lib/http/storable";
import { insertEvents } from "@/lib/events/repo";
import type { EventData } from "@/lib/events/catalogue";
import { pauseForTemplate } from "@/lib/broadcasts/lifecycle";
import {
  insertTemplateChange,
  lockTemplateForMeta,
  templateChangeKept,
  updateTemplateFromMeta,
  type TemplateChangeRow,
} from "./changes-repo";
import type { TemplateRow } from "./repo";
import { isSendableStatus } from "./sendable";
import { forgetSendCatalog } from "@/lib/messages/send-catalog";

/**
 * Meta's template webhooks applied to the team's template, at once, in the caller's transaction
 * (lib/meta-webhooks/account-updates.ts opens one per item): the template's status (and Meta's
 * reason), quality score or category changes, a `template_changes` row keeps what it was and
 * became, a `template.updated` event tells the dashboard, and a template that can no longer be
 * sent pauses its broadcasts still sending (docs/features/templates-and-number-health.md).
 *
 * A change that changes nothing (a redelivery, or Meta repeating itself) writes nothing, so
 * replays are harmless; a status older than the one applied (Meta's time of the change, the
 * entry's `time`) does not move the status back. A webhook without a time leaves the recorded
 * time as it was: the receipt time would be later than Meta's time of a change that follows it.
 */

/** Meta's status events that are not statuses: what the template's status becomes, or null (unchanged). */
const STATUS_OF_EVENT: Record<string, string | null> = {
  REINSTATED: "APPROVED",
  UNARCHIVED: "APPROVED",
  FLAGGED: null,
  LOCKED: null,
  UNLOCKED: null,
};
const STATUSES = new Set([
  "APPROVED",
  "PENDING",
  "REJECTED",
  "PAUSED",
  "DISABLED",
  "IN_APPEAL",
  "LIMIT_EXCEEDED",
  "PENDING_DELETION",
  "DELETED",
  "ARCHIVED",
]);

/** The status an event sets, null for a notice (FLAGGED…); undefined for an event we do not know. */
export function statusOfEvent(event: string): string | null | undefined {
  if (STATUSES.has(event)) return event;
  return event in STATUS_OF_EVENT ? STATUS_OF_EVENT[event] : undefined;
}

type TemplateUpdate = Extract<AccountUpdate, { kind: "template_status" | "template_quality" | "template_category" }>;
const wholeSecond = (d: Date) => Math.floor(d.getTime() / 1000) * 1000;

export type TemplateOutcome = "applied" | "unchanged" | { setAside: string };

export type TemplateChange = { field: TemplateChangeRow["field"]; previous: string | null; value: string; reason: string | null };
type Change = TemplateChange;

/**
 * Where a change comes from: Meta's time of it (a webhook's entry time; a sync's start), the item
 * as received, and who told us (`webhook` unless said: the sync says `sync`).
 */
export type MetaOrigin = { at: Date | null; raw: unknown; source?: TemplateChangeRow["source"] };

export async function applyTemplateUpdate(
  tx: DbOrTx,
  at: { teamId: number; waNumberIds: number[] },
  update: TemplateUpdate,
  meta: MetaOrigin,
): Promise<TemplateOutcome> {
  const ref = update.template;
  const row = await lockTemplateForMeta(tx, { teamId: at.teamId, waNumberIds: at.waNumberIds, ...ref });
  if (!row) {
    const named = [ref.metaId && `id ${ref.metaId}`, ref.name && `${ref.name} (${ref.language ?? "?"})`].filter(Boolean).join(", ");
    return { setAside: `${fieldOf(update)}: no template ${named} of this business account's numbers` };
  }
  // The template learns Meta's id from the first webhook that names it by name and id.
  const externalId = row.externalId ?? ref.metaId ?? null;
  let change: Change;
  let after: TemplateRow = row;
  switch (update.kind) {
    case "template_status": {
      const status = statusOfEvent(update.event);
      if (status === undefined) return { setAside: `${fieldOf(update)}: unknown event ${update.event}` };
      if (status === null) {
        // A notice (FLAGGED…): kept once per Meta time; the template is unchanged.
        if (
          meta.at &&
          (await templateChangeKept(tx, { teamId: at.teamId, templateId: row.id, field: "notice", value: update.event, metaAt: meta.at }))
        )
          return "unchanged";
        change = { field: "notice", previous: row.status, value: update.event, reason: update.reason };
        break;
      }
      const reason = update.reason ?? "NONE";
      if (status === row.status && reason === row.rejectedReason) return "unchanged";
      // Meta's times are whole seconds, ours (a submission from the editor) carry milliseconds: a
      // change Meta made in the second of ours is not older than it, only one in an earlier second.
      if (meta.at && row.statusChangedAt && meta.at.getTime() < wholeSecond(row.statusChangedAt)) return "unchanged";
      after = await updateTemplateFromMeta(tx, {
        teamId: at.teamId,
        id: row.id,
        values: { status, rejectedReason: reason, statusChangedAt: meta.at ?? row.statusChangedAt, externalId },
      });
      change = { field: "status", previous: row.status, value: status, reason: update.reason };
      break;
    }
    case "template_quality": {
      if (update.quality === row.qualityScore) return "unchanged";
      after = await updateTemplateFromMeta(tx, { teamId: at.teamId, id: row.id, values: { qualityScore: update.quality, externalId } });
      change = { field: "quality", previous: row.qualityScore, value: update.quality, reason: null };
      break;
    }
    case "template_category": {
      if (update.pending) {
        // Announced, not made: Meta will recategorise the template (and say so again when it does).
        if (
          meta.at &&
          (await templateChangeKept(tx, {
            teamId: at.teamId,
            templateId: row.id,
            field: "category_pending",
            value: update.pending,
            metaAt: meta.at,
          }))
        )
          return "unchanged";
        change = { field: "category_pending", previous: row.category, value: update.pending, reason: null };
        break;
      }
      if (update.category === row.category.toUpperCase()) return "unchanged";
      // MARKETING from now on: the opt-out rules apply to it at once, at send (lib/contacts/opt-out.ts
      // optedOutAmong) and at the claim of what is already queued (marketingRefusedSql), both of
      // which read the template's category as it is then.
      after = await updateTemplateFromMeta(tx, { teamId: at.teamId, id: row.id, values: { category: update.category, externalId } });
      change = { field: "category", previous: row.category, value: update.category, reason: null };
      break;
    }
  }
  await recordTemplateChange(tx, { teamId: at.teamId, after, change, meta });
  return "applied";
}

/**
 * What every change Meta makes to a template leaves, in the caller's transaction: its
 * `template_changes` row, the `template.updated` event, and, when the status became one that
 * cannot be sent, its broadcasts still sending paused. The webhooks (above) and the sync with
 * Meta's list (lib/templates/sync-service.ts: a template it creates, or whose content Meta edited)
 * both write through here. `after` is the template as it is now.
 */
export async function recordTemplateChange(
  tx: DbOrTx,
  { teamId, after, change, meta }: { teamId: number; after: TemplateRow; change: TemplateChange; meta: MetaOrigin },
) {
  await insertTemplateChange(tx, {
    teamId,
    templateId: after.id,
    field: change.field,
    previous: change.previous,
    value: change.value,
    reason: change.reason,
    metaAt: meta.at,
    raw: storableJson(meta.raw),
    source: meta.source ?? "webhook",
  });
  // This process's sends stop using the cached template now, not when the NOTIFY comes back.
  forgetSendCatalog(teamId);
  await insertEvents(tx, [{ teamId, type: "template.updated", waNumberId: after.waNumberId, data: templateEvent(after, change) }]);
  if (change.field === "status" && !isSendableStatus(after.status)) {
    await pauseForTemplate(tx, { teamId, templateId: after.id, reason: pauseReason(after) });
  }
}

/** What a broadcast paused by its template says (`paused_reason`). */
export function pauseReason(t: Pick<TemplateRow, "name" | "status" | "rejectedReason">): string {
  const why = t.rejectedReason && t.rejectedReason.toUpperCase() !== "NONE" ? ` Motivo: ${t.rejectedReason}.` : "";
  return `Meta cambió el estado de la plantilla ${t.name} a ${t.status}.${why}`;
}

function templateEvent(t: TemplateRow, change: Change): EventData<"template.updated"> {
  return {
    id: t.externalId ?? String(t.id),
    name: t.name,
    language: t.language,
    status: t.status,
    category: t.category,
    quality_score: t.qualityScore,
    rejected_reason: t.rejectedReason,
    sendable: isSendableStatus(t.status),
    change,
  };
}

const fieldOf = (u: TemplateUpdate) =>
  u.kind === "template_status"
    ? "message_template_status_update"
    : u.kind === "template_quality"
      ? "message_template_quality_update"
      : "template_category_update";
