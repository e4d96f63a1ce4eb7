import type { ConversationFilters } from "./inbox";
import type { HistoryParams } from "./hooks";
import type { ReportParams } from "./reports";
import type { AudienceRule } from "./types";

/**
 * Every TanStack Query key of the dashboard, and only here: a cache is written, invalidated and
 * patched by the live events (live-events.ts) under the same key its query reads, so a key
 * written twice by hand cannot drift. `…All` keys are prefixes: every query of that kind.
 */
export const queryKeys = {
  me: ["me"] as const,
  numbers: ["wa_numbers"] as const,
  templates: (waNumber: string) => ["templates", waNumber] as const,
  bots: ["bots"] as const,
  campaigns: ["campaigns"] as const,
  labels: ["labels"] as const,
  savedReplies: ["saved-replies"] as const,
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
    /** Every inbox history (the whole-history walk, unlike the viewer's date-ranged `history`). */
    threadAll: ["thread"] as const,
    thread: (waNumber: string, source: string) => ["thread", waNumber, source] as const,
    /** The optimistic reply bubbles of one thread (inbox.ts useSendReply). */
    pending: (waNumber: string, source: string) => ["thread-pending", waNumber, source] as const,
    notesAll: ["notes"] as const,
    notes: (conversationId: number) => ["notes", conversationId] as const,
  },

  /** The date-range history viewer behind /conversations (components/history). */
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

  reports: {
    summary: (p: ReportParams) => ["reports", "summary", p] as const,
    agents: (p: ReportParams) => ["reports", "agents", p] as const,
  },
};
