"use client";
import { useState } from "react";
import { useRoutingRules } from "@/lib/api-client/routing";
import type { RoutingRules } from "@/lib/routing/schemas";
import { useT, type MessageKey } from "@/lib/i18n";
import { Card, ErrorBox, SkeletonRows } from "@/components/ui";
import { TokenSecret } from "@/components/tokens/tokens-page";
import { RoutingTester } from "./routing-tester";
import { TargetList, type NewSecret } from "./target-list";

/**
 * The team's reply routing (docs/features/routing.md): the rules in the order the code applies
 * them, the bots and campaigns they name, and a tester. A new webhook secret is shown once, in the
 * tokens page's panel, and only lives in this component's state.
 */
export function RoutingPage() {
  const t = useT();
  const rules = useRoutingRules();
  const [secret, setSecret] = useState<NewSecret | null>(null);
  return (
    <>
      <h2 className="mb-2 text-lg font-semibold text-slate-900">{t("routing.title")}</h2>
      <p className="mb-4 max-w-3xl text-sm text-slate-700">{t("routing.intro")}</p>
      {secret && (
        <TokenSecret
          shown={{ kind: "created", name: secret.name, secret: secret.secret }}
          title={t("routing.secretCreated", { name: secret.name })}
          label={t("routing.secretLabel")}
          onDone={() => setSecret(null)}
        />
      )}
      {rules.isError ? (
        <ErrorBox error={rules.error} onRetry={() => rules.refetch()} />
      ) : !rules.data ? (
        <SkeletonRows rows={4} />
      ) : (
        <>
          <RulesCard rules={rules.data} />
          <TargetList kind="bot" items={rules.data.bots} onSecret={setSecret} />
          <TargetList kind="campaign" items={rules.data.campaigns} onSecret={setSecret} />
        </>
      )}
      <RoutingTester />
    </>
  );
}

function RulesCard({ rules }: { rules: RoutingRules }) {
  const t = useT();
  return (
    <Card className="mb-6">
      <h3 className="mb-2 text-base font-semibold text-slate-900">{t("routing.rulesTitle")}</h3>
      <p className="text-sm font-medium text-slate-800">{t("routing.attributionTitle")}</p>
      <ol className="mb-3 ml-5 list-decimal text-sm text-slate-700">
        {rules.attribution.map((a) => (
          <li key={a.attribution}>{t(`routing.attribution.${a.attribution}` as MessageKey)}</li>
        ))}
      </ol>
      <p className="text-sm font-medium text-slate-800">{t("routing.rulesOrder")}</p>
      <ol className="ml-5 list-decimal text-sm text-slate-700" data-testid="routing-rules">
        {rules.rules.map((r) => (
          <li key={r.rule}>{t(`routing.rule.${r.rule}` as MessageKey)}</li>
        ))}
      </ol>
    </Card>
  );
}
