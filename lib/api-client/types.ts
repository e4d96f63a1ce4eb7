import type { TemplateComponent } from "@/lib/templates/schemas";

/** Shapes of /api/v1 answers as the dashboard reads them (contract sections 2 and 4). */
export type Pagination = { total_items: number; items_per_page: number; current_page: number; total_pages: number };
export type List<T> = { message: string; data: T[]; pagination: Pagination };
export type One<T> = { message: string; data: T };

export type Agent = { id: number; name: string; email: string; team_id: number };
export type WaNumber = { id: number; number: string; display_name: string; provider: string };
export type Template = {
  id: string;
  name: string;
  status: string;
  category: string;
  language: string;
  rejected_reason: string;
  components: TemplateComponent[];
  default_media_path?: string | null;
};
export type Label = { id: number; title: string; description: string | null; bg_color: string; text_color: string };
export type Contact = { id: number; name: string | null; customer_number: string | null; customer_id: string | null; labels: Label[] };
export type Bot = { id: number; name: string };
export type Campaign = { id: number; name: string };
export type Message = {
  id: number;
  customer_number: string | null;
  customer_id: string | null;
  sender: string | null;
  direction: string | null;
  type: string | null;
  status: string | null;
  created_at: string | null;
  timestamp: number | null;
  payload: unknown;
  agent_id: number | null;
  agent_name: string | null;
  update_id?: string;
  error?: { code?: number | null; title?: string; details?: string | null } | null;
  /** Where an inbound reply was routed (ruling 8): a bot or a campaign, and why. */
  routed_to?: { kind: "bot" | "campaign"; id: number | null; reason: string } | null;
};
export type HistoryPage = { message: string; data: Message[]; pagination: Pagination | null };
