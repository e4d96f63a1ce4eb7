import type { World } from "./hardening-world";

/**
 * Every /api/v1 endpoint, as data: the hardening tests (bad input, tenancy matrix, body limits)
 * iterate this table. `input` is "json" (a JSON body), "query" (a query string), "multipart",
 * "raw" (a signed raw body) or "none"; `valid` is an input that succeeds for the world's team.
 */
export type Endpoint = {
  name: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: (w: World) => string;
  input: "json" | "query" | "multipart" | "raw" | "none";
  valid?: (w: World) => Record<string, unknown>;
  auth: "token" | "public";
  /** Writes something when it succeeds (its refusals must leave the team's rows as they were). */
  writes?: boolean;
  /** The route's JSON body limit, for the 413 test. */
  maxBytes?: number;
};

const KB = 1024;
/** A valid single-send body for a team with a number and the text template of the factories. */
export const sendBody = (w: { number: { number: string }; template: { name: string } }) => ({
  wa_number: w.number.number,
  destination: "573001234567",
  template_name: w.template.name,
  header_param: { key: "1", value: "Ana" },
  body_params: [
    { key: "1", value: "A-1" },
    { key: "2", value: "lunes" },
  ],
});
const page = () => ({ page: "1", per_page: "10" });

export const ENDPOINTS: Endpoint[] = [
  {
    name: "login",
    method: "POST",
    path: () => "/api/v1/auth/login",
    input: "json",
    auth: "public",
    maxBytes: 256 * KB,
    valid: () => ({ email: "nobody@example.com", password: "x" }),
  },
  { name: "logout", method: "POST", path: () => "/api/v1/auth/logout", input: "none", auth: "token" },
  { name: "me", method: "GET", path: () => "/api/v1/auth/me", input: "none", auth: "token" },
  { name: "bots", method: "GET", path: () => "/api/v1/bots", input: "query", auth: "token", valid: page },
  { name: "campaigns", method: "GET", path: () => "/api/v1/campaigns", input: "query", auth: "token", valid: page },
  {
    name: "contacts",
    method: "GET",
    path: () => "/api/v1/contacts",
    input: "query",
    auth: "token",
    valid: () => ({ ...page(), search: "57" }),
  },
  { name: "labels list", method: "GET", path: () => "/api/v1/contacts/labels", input: "query", auth: "token", valid: page },
  {
    name: "label create",
    method: "POST",
    path: () => "/api/v1/contacts/labels",
    input: "json",
    auth: "token",
    writes: true,
    maxBytes: 256 * KB,
    valid: () => ({ title: "Nueva", bg_color: "#000000", text_color: "#ffffff" }),
  },
  {
    name: "label update",
    method: "PATCH",
    path: (w) => `/api/v1/contacts/labels/${w.labels[2].id}`,
    input: "json",
    auth: "token",
    writes: true,
    maxBytes: 256 * KB,
    valid: () => ({ description: "cambiada" }),
  },
  {
    name: "label delete",
    method: "DELETE",
    path: (w) => `/api/v1/contacts/labels/${w.labels[2].id}`,
    input: "none",
    auth: "token",
    writes: true,
  },
  {
    name: "contact labels add",
    method: "POST",
    path: (w) => `/api/v1/contacts/${w.contact.id}/labels`,
    input: "json",
    auth: "token",
    writes: true,
    maxBytes: 256 * KB,
    valid: (w) => ({ label_ids: [w.labels[1].id] }),
  },
  {
    name: "contact update",
    method: "PATCH",
    path: (w) => `/api/v1/contacts/${w.contact.id}`,
    input: "json",
    auth: "token",
    writes: true,
    maxBytes: 256 * KB,
    valid: () => ({ marketing_opt_out: true }),
  },
  {
    name: "contact labels remove",
    method: "PUT",
    path: (w) => `/api/v1/contacts/${w.contact.id}/labels`,
    input: "json",
    auth: "token",
    writes: true,
    maxBytes: 256 * KB,
    valid: (w) => ({ label_ids: [w.labels[1].id] }),
  },
  { name: "media upload", method: "POST", path: () => "/api/v1/media-upload", input: "multipart", auth: "token", writes: true },
  { name: "media get", method: "GET", path: (w) => `/api/v1/media/${w.mediaPath}`, input: "none", auth: "token" },
  {
    name: "templates",
    method: "GET",
    path: () => "/api/v1/message_templates",
    input: "query",
    auth: "token",
    valid: (w) => ({ ...page(), wa_number: w.number.number }),
  },
  {
    name: "send",
    method: "POST",
    path: () => "/api/v1/message_templates/send",
    input: "json",
    auth: "token",
    writes: true,
    maxBytes: 256 * KB,
    valid: sendBody,
  },
  {
    name: "send bulk",
    method: "POST",
    path: () => "/api/v1/message_templates/send_bulk",
    input: "json",
    auth: "token",
    writes: true,
    maxBytes: 2048 * KB,
    valid: (w) => {
      const { wa_number, template_name, ...one } = sendBody(w);
      return { wa_number, template_name, recipients: [one] };
    },
  },
  { name: "broadcasts", method: "GET", path: () => "/api/v1/broadcasts", input: "query", auth: "token", valid: page },
  {
    name: "broadcast create",
    method: "POST",
    path: () => "/api/v1/broadcasts",
    input: "json",
    auth: "token",
    writes: true,
    maxBytes: 256 * KB,
    valid: (w) => ({
      name: "Difusión",
      wa_number: w.number.number,
      template_name: w.template.name,
      header_param: { key: "1", value: "{{name}}" },
      body_params: [
        { key: "1", value: "A-{{customer_id}}" },
        { key: "2", value: "lunes" },
      ],
      audience: { labels_any: [w.labels[0].id] },
    }),
  },
  {
    name: "history",
    method: "GET",
    path: () => "/api/v1/messages/whatsapp/history",
    input: "query",
    auth: "token",
    valid: (w) => ({
      wa_number: w.number.number,
      customer_source: w.contact.customerNumber!,
      from_date: new Date(Date.now() - 86400_000).toISOString().slice(0, 10),
    }),
  },
  {
    name: "reply",
    method: "POST",
    path: () => "/api/v1/messages/whatsapp/send",
    input: "json",
    auth: "token",
    writes: true,
    maxBytes: 256 * KB,
    valid: (w) => ({ wa_number: w.number.number, customer_source: w.contact.customerNumber!, type: "text", payload: { text: "hola" } }),
  },
  { name: "openapi", method: "GET", path: () => "/api/v1/openapi.json", input: "none", auth: "public" },
  { name: "health", method: "GET", path: () => "/api/v1/health", input: "none", auth: "public" },
  {
    name: "sandbox inbound",
    method: "POST",
    path: () => "/api/v1/sandbox/inbound",
    input: "json",
    auth: "token",
    writes: true,
    maxBytes: 256 * KB,
    valid: (w) => ({ wa_number: w.number.number, from: w.contact.customerNumber!, type: "text", payload: { text: "hola" } }),
  },
  {
    name: "template changes",
    method: "GET",
    path: (w) => `/api/v1/message_templates/${w.template.id}/changes`,
    input: "query",
    auth: "token",
    valid: page,
  },
  { name: "update", method: "GET", path: (w) => `/api/v1/updates/${w.updateId}`, input: "none", auth: "token" },
  { name: "update media", method: "GET", path: (w) => `/api/v1/updates/${w.updateId}/media`, input: "none", auth: "token" },
  { name: "wa numbers", method: "GET", path: () => "/api/v1/wa_numbers", input: "query", auth: "token", valid: page },
  { name: "webhook deliveries", method: "GET", path: () => "/api/v1/webhook_deliveries", input: "query", auth: "token", valid: page },
  {
    name: "webhook verify",
    method: "GET",
    path: () => "/api/v1/webhooks/whatsapp",
    input: "query",
    auth: "public",
    valid: () => ({ "hub.mode": "subscribe", "hub.verify_token": "x", "hub.challenge": "1" }),
  },
  { name: "webhook receive", method: "POST", path: () => "/api/v1/webhooks/whatsapp", input: "raw", auth: "public" },
];

export const DOCUMENTED_STATUSES = new Set([200, 201, 304, 400, 401, 403, 404, 413, 415, 422]);

/** The ruled error body (ruling 1), or why a response is not one. */
export function ruledBodyProblem(status: number, text: string): string | null {
  if (status < 400) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `not JSON: ${text.slice(0, 200)}`;
  }
  const b = body as { message?: unknown; errors?: unknown };
  if (!b || typeof b !== "object" || typeof b.message !== "string" || !b.message) return `no message: ${text.slice(0, 200)}`;
  const extra = Object.keys(b).filter((k) => k !== "message" && k !== "errors");
  if (extra.length) return `extra keys ${extra.join(",")}`;
  if (b.errors !== undefined) {
    if (!b.errors || typeof b.errors !== "object" || Array.isArray(b.errors)) return "errors is not an object";
    const lists = Object.values(b.errors as Record<string, unknown>);
    if (!lists.length) return "errors is empty";
    for (const l of lists)
      if (!Array.isArray(l) || !l.length || l.some((m) => typeof m !== "string")) return "errors lists are not strings";
    if ((lists[0] as string[])[0] !== b.message) return "message is not the first error";
  }
  if (status === 422 && b.errors === undefined) return "422 without errors";
  return null;
}
