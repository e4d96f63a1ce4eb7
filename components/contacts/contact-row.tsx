"use client";
import Link from "next/link";
import type { Contact, Label } from "@/lib/api-client/types";
import { useI18n } from "@/lib/i18n";
import { formatDateTime } from "@/lib/i18n/dates";
import { contactDisplayName } from "@/lib/contacts/display-name";
import { ContactLabelEditor } from "./contact-label-editor";
import { MarketingOptOut } from "./marketing-opt-out";

/** One contact with its last activity and its label chips: remove with one click, add from the picker. */
export function ContactRow({ contact, allLabels }: { contact: Contact; allLabels: Label[] }) {
  const { t, locale } = useI18n();
  const source = contact.customer_number ?? contact.customer_id ?? "";
  const activity = contact.last_activity_at ? Date.parse(contact.last_activity_at) : NaN;

  return (
    <li className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm" data-testid="contact-row" data-contact-id={contact.id}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="truncate font-medium">{contactDisplayName(contact)}</h2>
          <p className="text-xs text-slate-600">
            {contact.customer_number ? `+${contact.customer_number}` : ""}
            {contact.customer_id ? `${contact.customer_number ? " · " : ""}${t("inbox.customerId")}: ${contact.customer_id}` : ""}
          </p>
          <p className="text-xs text-slate-600" data-testid="last-activity">
            {Number.isNaN(activity) ? (
              t("contacts.noActivity")
            ) : (
              <time dateTime={contact.last_activity_at!}>
                {t("contacts.lastActivity", { when: formatDateTime(contact.last_activity_at, locale) })}
              </time>
            )}
          </p>
        </div>
        {source && (
          <Link href={`/history?customer=${encodeURIComponent(source)}`} className="text-sm text-wa-green-dark underline">
            {t("contacts.openConversation")}
          </Link>
        )}
      </div>
      <div className="mt-2">
        <ContactLabelEditor contact={contact} allLabels={allLabels} pickerId={`picker-${contact.id}`} />
      </div>
      <div className="mt-2">
        <MarketingOptOut contact={contact} />
      </div>
    </li>
  );
}
