"use client";
import type { Contact } from "@/lib/api-client/types";
import { useSetOptOut } from "@/lib/api-client/contact-opt-out";
import { useI18n } from "@/lib/i18n";
import { formatDateTime } from "@/lib/i18n/dates";

/**
 * Whether the contact receives MARKETING templates, since when and why not, and the agent's
 * switch. Opting back in asks first: it overrides the customer's own SALIR.
 */
export function MarketingOptOut({ contact }: { contact: Pick<Contact, "id" | "marketing_opt_out"> }) {
  const { t, locale } = useI18n();
  const set = useSetOptOut(contact.id);
  const out = contact.marketing_opt_out;
  const toggle = () => {
    if (out && !window.confirm(t("optOut.clearConfirm"))) return;
    set.mutate(!out);
  };
  return (
    <div className="text-sm" data-testid="marketing-opt-out" data-opted-out={out ? "1" : "0"}>
      {out ? (
        <p className="rounded-md bg-amber-50 px-2 py-1 text-amber-900">
          {t("optOut.optedOut", { when: formatDateTime(out.at, locale) })}: {t(`optOut.reason.${out.reason}`)}.{" "}
          <span className="text-amber-800">{t("optOut.note")}</span>
        </p>
      ) : (
        <p className="text-slate-600">{t("optOut.subscribed")}</p>
      )}
      <button
        type="button"
        onClick={toggle}
        disabled={set.isPending}
        className="mt-1 rounded border border-slate-300 px-2 py-0.5 text-xs text-slate-800 hover:bg-slate-50 disabled:opacity-50"
      >
        {out ? t("optOut.clear") : t("optOut.set")}
      </button>
      {set.error && (
        <p role="alert" className="mt-1 text-xs text-red-700">
          {set.error.message}
        </p>
      )}
    </div>
  );
}
