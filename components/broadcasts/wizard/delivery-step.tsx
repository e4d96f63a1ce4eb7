"use client";
import { useBots, useCampaigns } from "@/lib/api-client/hooks";
import { useT } from "@/lib/i18n";
import { Field, inputClass } from "@/components/ui";
import type { Draft, Errors } from "./draft";

type Props = { draft: Draft; onChange: (patch: Partial<Draft>) => void; errors: Errors };

/** The broadcast's name, where the customers' replies go (as in 4.1), its send group and when it starts. */
export function DeliveryStep({ draft, onChange, errors }: Props) {
  const t = useT();
  const bots = useBots();
  const campaigns = useCampaigns();
  const aria = (id: string) => ({ "aria-invalid": !!errors[id], "aria-describedby": errors[id] ? `${id}-error` : undefined });
  const tz = typeof Intl !== "undefined" ? Intl.DateTimeFormat().resolvedOptions().timeZone : "";
  return (
    <div className="space-y-4">
      <Field id="name" label={t("bc.name")} hint={t("bc.nameHint")} error={errors.name}>
        <input id="name" className={inputClass} value={draft.name} onChange={(e) => onChange({ name: e.target.value })} {...aria("name")} />
      </Field>
      <fieldset className="min-w-0 space-y-4">
        <legend className="text-sm font-semibold text-slate-800">{t("send.routing")}</legend>
        <Field id="response_handler" label={t("send.responseHandler")} error={errors.response_handler}>
          <select
            id="response_handler"
            className={inputClass}
            value={draft.response_handler}
            onChange={(e) => onChange({ response_handler: e.target.value as Draft["response_handler"] })}
            {...aria("response_handler")}
          >
            <option value="CAMPAIGN">{t("send.handler.CAMPAIGN")}</option>
            <option value="CHATBOT">{t("send.handler.CHATBOT")}</option>
          </select>
        </Field>
        {draft.response_handler === "CHATBOT" ? (
          <Field id="bot_id" label={t("send.bot")} error={errors.bot_id}>
            <select
              id="bot_id"
              className={inputClass}
              value={draft.bot_id}
              onChange={(e) => onChange({ bot_id: e.target.value })}
              {...aria("bot_id")}
            >
              <option value="">{t("common.choose")}</option>
              {bots.data?.map((b) => (
                <option key={b.id} value={String(b.id)}>
                  {b.name}
                </option>
              ))}
            </select>
          </Field>
        ) : (
          <Field id="campaign_id" label={t("send.campaign")} error={errors.campaign_id}>
            <select
              id="campaign_id"
              className={inputClass}
              value={draft.campaign_id}
              onChange={(e) => onChange({ campaign_id: e.target.value })}
              {...aria("campaign_id")}
            >
              <option value="">{t("send.campaignNone")}</option>
              {campaigns.data?.map((c) => (
                <option key={c.id} value={String(c.id)}>
                  {c.name}
                </option>
              ))}
            </select>
          </Field>
        )}
      </fieldset>
      <Field id="sent_group" label={t("send.sentGroup")} hint={t("send.sentGroupHint")} error={errors.sent_group}>
        <input
          id="sent_group"
          className={inputClass}
          value={draft.sent_group}
          placeholder={draft.name}
          onChange={(e) => onChange({ sent_group: e.target.value })}
          {...aria("sent_group")}
        />
      </Field>
      <fieldset className="min-w-0 space-y-2">
        <legend className="text-sm font-semibold text-slate-800">{t("bc.schedule")}</legend>
        <div className="flex flex-wrap gap-4">
          {(["now", "later"] as const).map((w) => (
            <label key={w} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="when"
                value={w}
                checked={draft.when === w}
                onChange={() => onChange({ when: w })}
                className="accent-wa-green"
              />
              {t(w === "now" ? "bc.schedule.now" : "bc.schedule.later")}
            </label>
          ))}
        </div>
        {draft.when === "later" && (
          <Field id="scheduled_at" label={t("bc.schedule.at")} hint={t("bc.schedule.tz", { tz })} error={errors.scheduled_at}>
            <input
              id="scheduled_at"
              type="datetime-local"
              className={inputClass}
              value={draft.scheduled_local}
              onChange={(e) => onChange({ scheduled_local: e.target.value })}
              {...aria("scheduled_at")}
            />
          </Field>
        )}
      </fieldset>
    </div>
  );
}
