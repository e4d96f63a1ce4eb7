"use client";
import type { ComponentPropsWithRef } from "react";
import { useBots, useCampaigns } from "@/lib/api-client/numbers";
import { useT } from "@/lib/i18n";
import { Field, inputClass } from "@/components/ui";

export type RoutingField = "response_handler" | "bot_id" | "campaign_id";
/** How a select is tied to its form: react-hook-form's `register(...)`, or a controlled value and onChange. */
export type SelectBinding = ComponentPropsWithRef<"select">;

type Props = {
  /** The chosen response_handler: CHATBOT asks for a bot, anything else for a campaign. */
  handler: string | null | undefined;
  /** Called only for the selects on screen, so a form library registers no field it does not show. */
  bind: (field: RoutingField) => SelectBinding;
  errors: Partial<Record<RoutingField, string>>;
};

/** Where the customers' replies go (a campaign, or a chatbot): the send form's and the broadcast wizard's. */
export function RoutingFields({ handler, bind, errors }: Props) {
  const t = useT();
  const bots = useBots();
  const campaigns = useCampaigns();
  const select = (id: RoutingField) => ({
    id,
    className: inputClass,
    ...bind(id),
    "aria-invalid": !!errors[id],
    "aria-describedby": errors[id] ? `${id}-error` : undefined,
  });
  return (
    <fieldset className="min-w-0 space-y-4">
      <legend className="text-sm font-semibold text-slate-800">{t("send.routing")}</legend>
      <Field id="response_handler" label={t("send.responseHandler")} error={errors.response_handler}>
        <select {...select("response_handler")}>
          <option value="CAMPAIGN">{t("send.handler.CAMPAIGN")}</option>
          <option value="CHATBOT">{t("send.handler.CHATBOT")}</option>
        </select>
      </Field>
      {handler === "CHATBOT" ? (
        <Field id="bot_id" label={t("send.bot")} error={errors.bot_id}>
          <select {...select("bot_id")}>
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
          <select {...select("campaign_id")}>
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
  );
}
