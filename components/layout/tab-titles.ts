import type { MessageKey } from "@/lib/i18n";

/**
 * Each dashboard page's tab title, in the agent's language: the longest matching path first. The
 * inbox is not here: its title carries the unread count (components/inbox/inbox-page.tsx).
 */
const TITLES: [prefix: string, key: MessageKey][] = [
  ["/broadcasts/new", "bc.new"],
  ["/broadcasts", "bc.title"],
  ["/contacts/import", "import.title"],
  ["/contacts", "contacts.title"],
  ["/labels", "labels.title"],
  ["/saved-replies", "saved.title"],
  ["/history", "conv.title"],
  ["/reports", "rep.title"],
  ["/audit", "audit.title"],
  ["/settings", "settings.title"],
  ["/send", "send.title"],
  ["/templates", "tp.title"],
];

export function titleKeyOf(pathname: string): MessageKey | null {
  const hit = TITLES.find(([prefix]) => pathname === prefix || pathname.startsWith(`${prefix}/`));
  return hit ? hit[1] : null;
}
