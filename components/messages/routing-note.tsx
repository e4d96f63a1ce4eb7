"use client";
import { useBots, useCampaigns } from "@/lib/api-client/numbers";
import type { Message } from "@/lib/api-client/types";
import { useT, type MessageKey } from "@/lib/i18n";

const ATTRIBUTIONS = ["context", "latest_template", "none"] as const;

/**
 * Where an inbound reply went (ruling 8), under its bubble: the bot or campaign by name, and how
 * the reply was attributed (the quoted template, the latest one sent, or none). The stored reason
 * is `<attribution>:<rule>` (lib/routing/service.ts).
 */
export function RoutingNote({ routedTo }: { routedTo: NonNullable<Message["routed_to"]> }) {
  const t = useT();
  const bots = useBots();
  const campaigns = useCampaigns();
  const list = routedTo.kind === "bot" ? bots.data : campaigns.data;
  const name = list?.find((x) => x.id === routedTo.id)?.name;
  const kind = t(routedTo.kind === "bot" ? "routing.bot" : "routing.campaign");
  const target = routedTo.id === null ? t("routing.nobody") : name ? `${kind} «${name}»` : `${kind} #${routedTo.id}`;
  const attribution = ATTRIBUTIONS.find((a) => routedTo.reason.startsWith(`${a}:`));
  return (
    <p className="mt-0.5 text-[11px] text-slate-600" data-testid="routed-to" title={routedTo.reason}>
      ↳ {t("routing.to", { target })}
      {attribution ? ` · ${t(`routing.via.${attribution}` as MessageKey)}` : null}
    </p>
  );
}
