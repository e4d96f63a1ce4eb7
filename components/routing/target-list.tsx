"use client";
import { useState } from "react";
import { useRoutingMutations } from "@/lib/api-client/routing";
import type { BotSettingsDto } from "@/lib/bots/schemas";
import type { CampaignSettingsDto } from "@/lib/campaigns/schemas";
import { useT } from "@/lib/i18n";
import { Button, Card, EmptyState } from "@/components/ui";
import { BotForm, CampaignForm } from "./target-forms";

/** A secret the server just made (create, first URL, rotate): the page shows it once. */
export type NewSecret = { name: string; secret: string };
type Kind = "bot" | "campaign";
type Item = (BotSettingsDto | CampaignSettingsDto) & { is_default?: boolean };

/** One kind's list (bots or campaigns) with its create, edit, rotate and delete. */
export function TargetList({ kind, items, onSecret }: { kind: Kind; items: Item[]; onSecret: (s: NewSecret) => void }) {
  const t = useT();
  const m = useRoutingMutations();
  const [creating, setCreating] = useState(false);
  const create = kind === "bot" ? m.createBot : m.createCampaign;
  const reveal = (data: { name: string; webhook_secret: string | null }) => {
    if (data.webhook_secret) onSecret({ name: data.name, secret: data.webhook_secret });
  };
  const title = t(kind === "bot" ? "routing.bots" : "routing.campaigns");
  return (
    <section className="mb-6" aria-labelledby={`${kind}-list-title`}>
      <div className="mb-2 flex items-center justify-between gap-2">
        <h3 id={`${kind}-list-title`} className="text-base font-semibold text-slate-900">
          {title}
        </h3>
        {!creating && (
          <Button
            onClick={() => {
              create.reset();
              setCreating(true);
            }}
          >
            {t(kind === "bot" ? "routing.newBot" : "routing.newCampaign")}
          </Button>
        )}
      </div>
      {creating && (
        <Card className="mb-3">
          {kind === "bot" ? (
            <BotForm
              pending={m.createBot.isPending}
              error={m.createBot.error}
              submitLabel={t("routing.createBot")}
              onCancel={() => setCreating(false)}
              onSubmit={(input) =>
                m.createBot.mutate(input, {
                  onSuccess: (res) => {
                    setCreating(false);
                    reveal(res.data);
                  },
                })
              }
            />
          ) : (
            <CampaignForm
              pending={m.createCampaign.isPending}
              error={m.createCampaign.error}
              submitLabel={t("routing.createCampaign")}
              onCancel={() => setCreating(false)}
              onSubmit={(input) =>
                m.createCampaign.mutate(input, {
                  onSuccess: (res) => {
                    setCreating(false);
                    reveal(res.data);
                  },
                })
              }
            />
          )}
        </Card>
      )}
      {!items.length ? (
        <EmptyState>{t(kind === "bot" ? "routing.noBots" : "routing.noCampaigns")}</EmptyState>
      ) : (
        <ul className="space-y-2" aria-label={title}>
          {items.map((item) => (
            <TargetRow key={item.id} kind={kind} item={item} reveal={reveal} />
          ))}
        </ul>
      )}
    </section>
  );
}

function TargetRow({
  kind,
  item,
  reveal,
}: {
  kind: Kind;
  item: Item;
  reveal: (d: { name: string; webhook_secret: string | null }) => void;
}) {
  const t = useT();
  const m = useRoutingMutations();
  const [editing, setEditing] = useState(false);
  const update = kind === "bot" ? m.updateBot : m.updateCampaign;
  const error = m.rotate.error ?? m.remove.error;
  const done = (res: { data: { name: string; webhook_secret: string | null } }) => {
    setEditing(false);
    reveal(res.data);
  };
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm" data-testid={`${kind}-row`} data-id={item.id}>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 flex-1 text-sm">
          <p className="flex flex-wrap items-center gap-2">
            <span className="font-semibold">{item.name}</span>
            {item.is_default && (
              <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-900">{t("routing.default")}</span>
            )}
          </p>
          <p className="mt-1 break-all text-xs text-slate-600">
            {item.webhook_url ? (
              <>
                <code className="font-mono">{item.webhook_url}</code>
                {item.has_webhook_secret && <> · {t("routing.secretSet")}</>}
              </>
            ) : (
              t("routing.noWebhook")
            )}
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <Button
            variant="secondary"
            aria-expanded={editing}
            aria-label={`${t("common.edit")}: ${item.name}`}
            onClick={() => {
              update.reset();
              setEditing((e) => !e);
            }}
          >
            {t("common.edit")}
          </Button>
          {item.webhook_url && (
            <Button
              variant="secondary"
              disabled={m.rotate.isPending}
              aria-label={`${t("routing.rotate")}: ${item.name}`}
              onClick={() => {
                if (window.confirm(t("routing.confirmRotate", { name: item.name })))
                  m.rotate.mutate({ kind, id: item.id }, { onSuccess: done });
              }}
            >
              {t("routing.rotate")}
            </Button>
          )}
          <Button
            variant="danger"
            disabled={m.remove.isPending}
            aria-label={`${t("common.delete")}: ${item.name}`}
            onClick={() => {
              if (window.confirm(t("routing.confirmDelete", { name: item.name }))) m.remove.mutate({ kind, id: item.id });
            }}
          >
            {t("common.delete")}
          </Button>
        </div>
      </div>
      {editing && (
        <div className="mt-3 border-t border-slate-100 pt-3">
          {kind === "bot" ? (
            <BotForm
              initial={{ name: item.name, is_default: !!item.is_default, webhook_url: item.webhook_url }}
              pending={m.updateBot.isPending}
              error={m.updateBot.error}
              submitLabel={t("common.save")}
              onCancel={() => setEditing(false)}
              onSubmit={(input) => m.updateBot.mutate({ ...input, id: item.id }, { onSuccess: done })}
            />
          ) : (
            <CampaignForm
              initial={{ name: item.name, webhook_url: item.webhook_url }}
              pending={m.updateCampaign.isPending}
              error={m.updateCampaign.error}
              submitLabel={t("common.save")}
              onCancel={() => setEditing(false)}
              onSubmit={(input) => m.updateCampaign.mutate({ ...input, id: item.id }, { onSuccess: done })}
            />
          )}
        </div>
      )}
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error.message}
        </p>
      )}
    </li>
  );
}
