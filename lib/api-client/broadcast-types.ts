import type { Pagination } from "./types";

/**
 * Shapes of the broadcast and audience API as agreed in BROADCAST-API.md, until the API branches'
 * zod schemas land (then these become z.infer of them, like ./types.ts).
 */
export type BroadcastStatus = "SCHEDULED" | "SENDING" | "PAUSED" | "CANCELLED" | "DONE";
export type AudienceRule = { labels_any: number[]; labels_all: number[]; labels_exclude: number[] };
export type BroadcastCounts = {
  recipients: number;
  rejected: number;
  queued: number;
  sended: number;
  sent: number;
  delivered: number;
  readed: number;
  failed: number;
  cancelled: number;
  replied: number;
};
export type Broadcast = {
  id: number;
  name: string;
  wa_number: string;
  template: { id: number; name: string; language: string };
  status: BroadcastStatus;
  audience: AudienceRule;
  sent_group: string;
  scheduled_at: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  created_by: { agent_id: number; agent_name: string } | null;
  counts: BroadcastCounts;
  failures_by_code: { code: number; title: string; count: number }[];
};
export type BroadcastResponse = { message: string; data: Broadcast };
export type BroadcastList = { message: string; data: Broadcast[]; pagination: Pagination };
export type RecipientStatus = "QUEUED" | "SENDED" | "SENT" | "DELIVERED" | "READED" | "FAILED" | "CANCELLED" | "REJECTED";
export type Recipient = {
  contact: { id: number; name: string | null; customer_number: string | null };
  update_id: string | null;
  status: RecipientStatus;
  error: { code: number | null; title: string } | null;
  replied: boolean;
  updated_at: string;
};
export type RecipientList = { message: string; data: Recipient[]; pagination: Pagination };
export type TimelinePoint = { at: string; sent: number; delivered: number; read: number; failed: number };
export type TimelineResponse = { message: string; data: TimelinePoint[] };
export type CreateBroadcastInput = {
  name: string;
  wa_number: string;
  template_name: string;
  language?: string;
  header_param?: { index: number; value: string } | null;
  body_params?: { index: number; value: string }[];
  media_path?: string | null;
  audience: AudienceRule;
  response_handler?: "CAMPAIGN" | "CHATBOT";
  campaign_id?: number | null;
  bot_id?: number | null;
  sent_group?: string;
  scheduled_at?: string | null;
};
export type AudienceSizeResponse = { message: string; data: { size: number } };
export type ImportReport = {
  processed: number;
  created: number;
  updated: number;
  rejected: { line: number; reason: string }[];
  warnings: { line: number; reason: string }[];
};
export type ImportLine = ({ type: "progress"; processed: number } | ({ type: "done" } & ImportReport)) & { message?: string };
