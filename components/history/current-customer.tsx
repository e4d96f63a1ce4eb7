"use client";
import { useContacts } from "@/lib/api-client/contacts";
import { contactDisplayName } from "@/lib/contacts/display-name";
import { useT } from "@/lib/i18n";

/**
 * Whose conversation is shown: the contact's name and number when the customer source (a number
 * or a customer_id, as the URL carries it) is one of the team's contacts, else what was typed.
 */
export function CurrentCustomer({ source }: { source: string }) {
  const t = useT();
  // The contacts search matches a number by its digits and a customer_id exactly.
  const found = useContacts(source, 1, 5);
  const contact = found.data?.data.find((c) => c.customer_number === source || c.customer_id === source);
  const number = contact?.customer_number ?? (/^\d+$/.test(source) ? source : null);
  return (
    <p className="mt-1 text-xs text-slate-600" data-testid="current-customer">
      {t("conv.customer")}: <span className="font-medium">{contact ? contactDisplayName(contact) : number ? `+${number}` : source}</span>
      {contact?.name && number ? <span className="tabular-nums"> · +{number}</span> : null}
    </p>
  );
}
