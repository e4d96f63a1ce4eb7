import "server-only";
import { getCountryCallingCode, isSupportedCountry } from "libphonenumber-js";
import { getDb, transaction } from "@/db/client";
import { recordCallerAudit } from "@/lib/audit/service";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError } from "@/lib/http/errors";
import { findTeamSettings, lockTeamSettings, updateTeamSettings } from "./settings-repo";
import type { TeamSettings, UpdateTeamSettingsInput } from "./settings-schemas";

export const COUNTRY_UNKNOWN = "El país por defecto no es un código de país conocido.";

/** What the settings row holds, as the API answers it (the calling code derived from the country). */
export function toTeamSettingsDto(row: {
  defaultCountry: string | null;
  replyAssigns: boolean;
  waitingAlertMinutes: number;
}): TeamSettings {
  const country = row.defaultCountry && isSupportedCountry(row.defaultCountry) ? row.defaultCountry : null;
  return {
    default_country: country,
    default_calling_code: country ? String(getCountryCallingCode(country)) : null,
    reply_assigns: row.replyAssigns,
    waiting_alert_minutes: row.waitingAlertMinutes,
  };
}

/** GET /api/v1/team/settings: the caller's team's settings. */
export async function getTeamSettings({ ctx }: { ctx: AuthContext }): Promise<TeamSettings> {
  const row = await findTeamSettings(await getDb(), { teamId: ctx.teamId });
  if (!row) throw ApiError.notFound();
  return toTeamSettingsDto(row);
}

/**
 * Changes the caller's team's settings (PATCH /api/v1/team/settings, the settings page and the
 * admin CLI's `team:settings`); a country must be one libphonenumber-js knows. A change that
 * changes something is audited with its before and after; one that changes nothing writes nothing.
 */
export async function setTeamSettings({ ctx, input }: { ctx: AuthContext; input: UpdateTeamSettingsInput }): Promise<TeamSettings> {
  if (input.default_country && !isSupportedCountry(input.default_country)) throw ApiError.invalid("default_country", COUNTRY_UNKNOWN);
  return transaction(async (tx) => {
    const before = await lockTeamSettings(tx, { teamId: ctx.teamId });
    if (!before) throw ApiError.notFound();
    const set: Parameters<typeof updateTeamSettings>[1]["set"] = {};
    if (input.default_country !== undefined && input.default_country !== before.defaultCountry) set.defaultCountry = input.default_country;
    if (input.reply_assigns !== undefined && input.reply_assigns !== before.replyAssigns) set.replyAssigns = input.reply_assigns;
    if (input.waiting_alert_minutes !== undefined && input.waiting_alert_minutes !== before.waitingAlertMinutes)
      set.waitingAlertMinutes = input.waiting_alert_minutes;
    if (!Object.keys(set).length) return toTeamSettingsDto(before);
    const after = await updateTeamSettings(tx, { teamId: ctx.teamId, set });
    if (!after) throw ApiError.notFound();
    const audited = (row: typeof before) => ({
      default_country: row.defaultCountry,
      reply_assigns: row.replyAssigns,
      waiting_alert_minutes: row.waitingAlertMinutes,
    });
    await recordCallerAudit(tx, ctx, {
      action: "team.settings_updated",
      target: { kind: "team", id: ctx.teamId },
      before: audited(before),
      after: audited(after),
    });
    return toTeamSettingsDto(after);
  });
}
