"use client";
import { useT } from "@/lib/i18n";
import { Field, inputClass } from "@/components/ui";
import { RoutingFields, type RoutingField, type SelectBinding } from "@/components/send/routing-fields";
import type { Draft, Errors } from "./draft";

type Props = { draft: Draft; onChange: (patch: Partial<Draft>) => void; errors: Errors };

/** The broadcast's name, where the customers' replies go (as in 4.1), its send group and when it starts. */
export function DeliveryStep({ draft, onChange, errors }: Props) {
  const t = useT();
  const routing: Record<RoutingField, SelectBinding> = {
    response_handler: {
      value: draft.response_handler,
      onChange: (e) => onChange({ response_handler: e.target.value as Draft["response_handler"] }),
    },
    bot_id: { value: draft.bot_id, onChange: (e) => onChange({ bot_id: e.target.value }) },
    campaign_id: { value: draft.campaign_id, onChange: (e) => onChange({ campaign_id: e.target.value }) },
  };
  const aria = (id: string) => ({ "aria-invalid": !!errors[id], "aria-describedby": errors[id] ? `${id}-error` : undefined });
  const tz = typeof Intl !== "undefined" ? Intl.DateTimeFormat().resolvedOptions().timeZone : "";
  return (
    <div className="space-y-4">
      <Field id="name" label={t("bc.name")} hint={t("bc.nameHint")} error={errors.name}>
        <input id="name" className={inputClass} value={draft.name} onChange={(e) => onChange({ name: e.target.value })} {...aria("name")} />
      </Field>
      <RoutingFields handler={draft.response_handler} bind={(f) => routing[f]} errors={errors} />
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
