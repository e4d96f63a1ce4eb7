import type { ConversationFilters } from "./inbox";
import type { HistoryParams } from "./history";
import type { ReportParams } from "./reports";
import type { AudienceRule } from "./types";

/**
 * Every TanStack Query key of the dashboard, and only here: a cache is written, invalidated and
 * patched by the live events (live-events.ts) under the same key its query reads, so a key
 * written twice by hand cannot drift. `…All` keys are prefixes: every query of that kind.
 */
export const queryKeys = {
  me: ["me"] as const,
  /** The team's settings (default country, reply assigns). */
  teamSettings: ["team-settings"] as const,
  numbers: ["wa_numbers"] as const,
  /** The numbers as settings (/settings/numbers): Meta ids, state, credentials set, webhook. */
  numberSettings: ["number-settings"] as const,
  /** Whether the first-run set-up is still to do (the sign-in and set-up pages). */
  setup: ["setup"] as const,
  /** Every number's template list (a prefix of templates(waNumber)). */
  allTemplates: ["templates"] as const,
  templates: (waNumber: string) => ["templates", waNumber] as const,
  /** The /templates page's list (under allTemplates, so a template.updated refreshes it too). */
  templateList: (filters: { status: string; search: string; page: number }) => ["templates", "page-list", filters] as const,
  /** Every template's change history, and one's (by the id the list shows). */
  templateChangesAll: ["template-changes"] as const,
  templateChanges: (id: string) => ["template-changes", id] as const,
  /** Each business account's last sync with Meta. */
  templateSyncs: ["template-syncs"] as const,
  bots: ["bots"] as const,
  /** The routing rules with the bots and campaigns as settings (/settings/routing). */
  routing: ["routing"] as const,
  campaigns: ["campaigns"] as const,
  labels: ["labels"] as const,
  savedReplies: ["saved-replies"] as const,
  audit: (filters: Record<string, string | number>) => ["audit", filters] as const,
  /** The team's agents and the pending invitations (/settings/agents). */
  agents: ["agents"] as const,
  invitations: ["agent-invitations"] as const,
  /** What an invitation link is for (the public accept page). */
  invitationPreview: (token: string) => ["invitation-preview", token] as const,
  /** The team's API tokens (/settings/tokens). */
  tokens: ["api-tokens"] as const,
  /** The team's webhook endpoints (/settings/webhooks), and one endpoint's delivery log. */
  webhookEndpoints: ["webhook-endpoints"] as const,
  webhookDeliveries: (endpointId: number) => ["webhook-endpoints", endpointId, "deliveries"] as const,
  /** Every contacts list, whatever its search and paging (for invalidations and optimistic patches). */
  contactsAll: ["contacts"] as const,
  contacts: (search: string, page: number, perPage: number, labelIds: number[] = []) =>
    ["contacts", search, page, perPage, labelIds] as const,

  /** The inbox: conversation lists, one conversation, its whole history (the thread) and notes. */
  inbox: {
    /** Every conversation list, whatever its filters. */
    listsAll: ["conversations"] as const,
    list: (f: ConversationFilters) => ["conversations", f] as const,
    /** Every single conversation. */
    oneAll: ["conversation"] as const,
    one: (id: number) => ["conversation", id] as const,
    /** Every inbox thread (a conversation's pages, newest first; unlike the viewer's date-ranged `history`). */
    threadAll: ["thread"] as const,
    thread: (conversationId: number) => ["thread", conversationId] as const,
    /** The messages the event stream brought to one thread, beside its pages (inbox-thread.ts). */
    liveAll: ["thread-live"] as const,
    live: (conversationId: number) => ["thread-live", conversationId] as const,
    /** The optimistic reply bubbles of one thread (inbox.ts useSendReply). */
    pending: (waNumber: string, source: string) => ["thread-pending", waNumber, source] as const,
    notesAll: ["notes"] as const,
    notes: (conversationId: number) => ["notes", conversationId] as const,
  },

  /** The date-range history viewer behind /history (components/history). */
  history: {
    all: ["history"] as const,
    one: (p: HistoryParams) => ["history", p] as const,
    /** The contact id of a history's customer_source (the live events match the viewer by it). */
    contact: (source: string) => ["history-contact", source] as const,
  },

  broadcasts: {
    all: ["broadcasts"] as const,
    listsAll: ["broadcasts", "list"] as const,
    list: (page: number, perPage: number) => ["broadcasts", "list", page, perPage] as const,
    oneAll: ["broadcasts", "one"] as const,
    one: (id: number) => ["broadcasts", "one", id] as const,
    recipientsAll: (id: number) => ["broadcasts", "recipients", id] as const,
    recipients: (id: number, status: string, page: number) => ["broadcasts", "recipients", id, status, page] as const,
    timelineAll: (id: number) => ["broadcasts", "timeline", id] as const,
    timeline: (id: number, bucket: "minute" | "hour") => ["broadcasts", "timeline", id, bucket] as const,
  },

  audienceSizeAll: ["audience-size"] as const,
  audienceSize: (rule: AudienceRule) => ["audience-size", rule] as const,
  messagingLimit: (waNumber: string, recipients: number, scheduledAt: string | null) =>
    ["messaging-limit", waNumber, recipients, scheduledAt] as const,

  reports: {
    summary: (p: ReportParams) => ["reports", "summary", p] as const,
    agents: (p: ReportParams) => ["reports", "agents", p] as const,
  },
};
