"use client";
import { useMemo, useState } from "react";
import { useTeamSettings, useUpdateTeamSettings } from "@/lib/api-client/team-settings";
import type { TeamSettings } from "@/lib/api-client/types";
import { ApiRequestError } from "@/lib/api-client/fetch";
import { useI18n } from "@/lib/i18n";
import { countryOptions } from "@/lib/i18n/countries";
import { Button, Card, ErrorBox, Field, FormError, inputClass, SkeletonRows } from "@/components/ui";

/**
 * /settings/team (docs/features/team-settings.md): what every agent's screens follow, the default
 * country of numbers typed without their code, whether replying assigns and the inbox's waiting alert. Owners and admins
 * only (the section is listed to them; the server refuses the rest).
 */
export function TeamSettingsPage() {
  const { t } = useI18n();
  const settings = useTeamSettings();
  // Held here, not in the form: the form starts again after a save, and "saved" must outlive it.
  const update = useUpdateTeamSettings();
  const loaded = settings.data;
  return (
    <div className="space-y-4">
      <h2 className="text-lg font-semibold">{t("team.title")}</h2>
      <p className="max-w-3xl text-sm text-slate-700">{t("team.intro")}</p>
      {settings.isError ? (
        <ErrorBox error={settings.error} onRetry={() => settings.refetch()} />
      ) : !loaded ? (
        <SkeletonRows rows={2} />
      ) : (
        // Keyed by what the server holds: the form starts again from each save's answer.
        <TeamSettingsForm
          key={`${loaded.default_country}/${loaded.reply_assigns}/${loaded.waiting_alert_minutes}`}
          saved={loaded}
          update={update}
        />
      )}
    </div>
  );
}

function TeamSettingsForm({ saved, update }: { saved: TeamSettings; update: ReturnType<typeof useUpdateTeamSettings> }) {
  const { t, locale } = useI18n();
  const countries = useMemo(() => countryOptions(locale), [locale]);
  const [country, setCountry] = useState(saved.default_country ?? "");
  const [replyAssigns, setReplyAssigns] = useState(saved.reply_assigns);
  // Kept as typed: the server's 422 names a value out of range, the form does not second-guess it.
  const [waitingAlert, setWaitingAlert] = useState(String(saved.waiting_alert_minutes));
  const errs = update.error instanceof ApiRequestError ? update.error.errors : {};
  const general = update.error && !Object.keys(errs).length ? update.error.message : null;
  const changed =
    (saved.default_country ?? "") !== country ||
    saved.reply_assigns !== replyAssigns ||
    String(saved.waiting_alert_minutes) !== waitingAlert.trim();

  return (
    <Card className="max-w-2xl">
      <form
        noValidate
        className="space-y-4"
        data-testid="team-settings-form"
        onSubmit={(e) => {
          e.preventDefault();
          update.mutate({
            default_country: country || null,
            reply_assigns: replyAssigns,
            // A blank or non-numeric entry goes as it is typed (NaN is sent as null) so the server names it.
            waiting_alert_minutes: waitingAlert.trim() === "" ? Number.NaN : Number(waitingAlert),
          });
        }}
      >
        <Field id="team-country" label={t("team.country")} hint={t("team.countryHint")} error={errs.default_country?.[0]}>
          <select
            id="team-country"
            className={inputClass}
            value={country}
            aria-invalid={!!errs.default_country}
            aria-describedby={errs.default_country ? "team-country-error" : "team-country-hint"}
            onChange={(e) => setCountry(e.target.value)}
          >
            <option value="">{t("team.countryNone")}</option>
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name} ({c.code})
              </option>
            ))}
          </select>
        </Field>
        <div className="flex items-start gap-2">
          <input
            id="team-reply-assigns"
            type="checkbox"
            className="mt-1 h-4 w-4"
            checked={replyAssigns}
            aria-describedby="team-reply-assigns-hint"
            onChange={(e) => setReplyAssigns(e.target.checked)}
          />
          <div>
            <label htmlFor="team-reply-assigns" className="text-sm font-medium text-slate-800">
              {t("team.replyAssigns")}
            </label>
            <p id="team-reply-assigns-hint" className="text-xs text-slate-600">
              {t("team.replyAssignsHint")}
            </p>
          </div>
        </div>
        <Field
          id="team-waiting-alert"
          label={t("team.waitingAlert")}
          hint={t("team.waitingAlertHint")}
          error={errs.waiting_alert_minutes?.[0]}
        >
          <input
            id="team-waiting-alert"
            type="number"
            inputMode="numeric"
            min={1}
            max={1440}
            className={`${inputClass} w-32`}
            value={waitingAlert}
            aria-invalid={!!errs.waiting_alert_minutes}
            aria-describedby={errs.waiting_alert_minutes ? "team-waiting-alert-error" : "team-waiting-alert-hint"}
            onChange={(e) => setWaitingAlert(e.target.value)}
          />
        </Field>
        <FormError message={general} />
        <div className="flex items-center gap-3">
          <Button type="submit" disabled={!changed || update.isPending}>
            {t("team.save")}
          </Button>
          {update.isSuccess && !changed && (
            <p role="status" className="text-sm text-emerald-800">
              {t("team.saved")}
            </p>
          )}
        </div>
      </form>
    </Card>
  );
}
