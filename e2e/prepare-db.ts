/**
 * Runs before `next start` (Playwright's webServer command), while nobody holds the database:
 * migrations, the demo seed, and the e2e fixtures (hostile payloads, a long conversation). It is
 * idempotent, so a second run on the same Postgres (CI) adds nothing twice.
 */
import fs from "node:fs";
import { and, count, eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { agents, contacts, messages, templateChanges, templates, waNumbers } from "@/db/schema";
import { hashPassword } from "@/lib/auth/password";
import { seedDemo } from "@/lib/seed/demo";
import {
  BROKEN_CONTACT,
  BROKEN_HANDLE,
  BROKEN_TEXTS,
  DEMO,
  JS_URL,
  LONG_CONTACT,
  LOOKALIKE_CONTACT,
  LOOKALIKE_TAB_URL,
  LOOKALIKE_URL,
  PLAIN_AGENT,
  REJECTED_TEMPLATE,
  RENDER,
  RENDER_CONTACT,
  XSS_CONTACT,
  XSS_TEXT,
} from "./fixtures";

const dir = process.env.PGLITE_DIR;
if (!process.env.DATABASE_URL && dir && !dir.startsWith("memory://")) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(`${dir}.lock`, { force: true });
}

if (process.env.DATABASE_URL && process.env.E2E_SERVER_DATABASE_URL) {
  // A fresh database for this run (see playwright.config.ts), created from the given one.
  const { default: postgres } = await import("postgres");
  const name = decodeURIComponent(new URL(process.env.DATABASE_URL).pathname.slice(1));
  const admin = postgres(process.env.E2E_SERVER_DATABASE_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  await admin.unsafe(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  await admin.end();
}

await runMigrations();
const { team_id: teamId } = await seedDemo();
const db = await getDb();
const [number] = await db.select().from(waNumbers).where(eq(waNumbers.number, DEMO.number)).limit(1);

type Row = Omit<typeof messages.$inferInsert, "teamId" | "waNumberId" | "contactId">;

async function contactWithMessages(c: { number: string; customerId: string; name: string }, build: () => Row[]) {
  await db.insert(contacts).values({ teamId, name: c.name, customerNumber: c.number, customerId: c.customerId }).onConflictDoNothing();
  const [contact] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.teamId, teamId), eq(contacts.customerNumber, c.number)));
  const [{ n }] = await db.select({ n: count() }).from(messages).where(eq(messages.contactId, contact.id));
  if (n > 0) return;
  const rows = build().map((m) => ({ ...m, teamId, waNumberId: number.id, contactId: contact.id }));
  for (let i = 0; i < rows.length; i += 100) await db.insert(messages).values(rows.slice(i, i + 100));
}

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
const inbound = (m: number, type: string, payload: Record<string, unknown> | unknown[]) => ({
  customerNumber: XSS_CONTACT.number,
  customerId: XSS_CONTACT.customerId,
  sender: "CUSTOMER" as const,
  direction: "INBOUND" as const,
  type,
  status: "RECEIVED" as const,
  payload,
  createdAt: minutesAgo(m),
});

await contactWithMessages(XSS_CONTACT, () => [
  inbound(50, "text", {
    text: XSS_TEXT,
    referral: {
      source_url: JS_URL,
      source_type: "ad",
      headline: "<b>titular</b>",
      body: "cuerpo",
      image_url: JS_URL,
      thumbnail_url: JS_URL,
    },
  }),
  inbound(40, "image", { url: JS_URL, caption: "<img src=x onerror=alert(1)>", contentType: "image/png", id: "1", sha256: "x" }),
  inbound(35, "document", { url: JS_URL, filename: "<script>.pdf", caption: "", contentType: "application/pdf", id: "2", sha256: "x" }),
  inbound(30, "contacts", [{ name: { formatted_name: "<script>alert(1)</script>" }, urls: [{ url: JS_URL, type: "WORK" }] }]),
  {
    ...inbound(20, "template", {
      name: "x",
      components: [
        { type: "HEADER", format: "IMAGE", example: { header_handle: [JS_URL] } },
        { type: "BODY", text: "Cuerpo <script>window.__xss=5</script>" },
        { type: "BUTTONS", buttons: [{ type: "URL", text: "Botón peligroso", url: JS_URL }] },
      ],
    }),
    sender: "SYSTEM" as const,
    direction: "OUTBOUND" as const,
    status: "FAILED" as const,
    customerNumber: XSS_CONTACT.number,
  },
  inbound(10, "poll", { question: "<script>window.__xss=6</script>¿Encuesta?", link: JS_URL, options: ["Sí", "No"] }),
]);

await contactWithMessages(LONG_CONTACT, () =>
  Array.from({ length: LONG_CONTACT.messages }, (_, i) => ({
    customerNumber: LONG_CONTACT.number,
    customerId: LONG_CONTACT.customerId,
    sender: (i % 2 ? "BOT" : "CUSTOMER") as "BOT" | "CUSTOMER",
    direction: (i % 2 ? "OUTBOUND" : "INBOUND") as "OUTBOUND" | "INBOUND",
    type: "text",
    status: (i % 2 ? "READED" : "RECEIVED") as "READED" | "RECEIVED",
    payload: { text: `Mensaje número ${i + 1}` },
    // Spread over the last four days so day separators appear.
    createdAt: minutesAgo((LONG_CONTACT.messages - i) * 30),
  })),
);

const outbound = (c: { number: string; customerId: string }, m: number, type: string, payload: Record<string, unknown>) => ({
  customerNumber: c.number,
  customerId: c.customerId,
  sender: "SYSTEM" as const,
  direction: "OUTBOUND" as const,
  type,
  status: "SENT" as const,
  payload,
  createdAt: minutesAgo(m),
});
const inboundFrom = (c: { number: string; customerId: string }, m: number, type: string, payload: Record<string, unknown> | unknown[]) => ({
  ...inbound(m, type, payload),
  customerNumber: c.number,
  customerId: c.customerId,
});

await contactWithMessages(BROKEN_CONTACT, () => [
  inboundFrom(BROKEN_CONTACT, 60, "text", { text: BROKEN_TEXTS.before }),
  // A BUTTONS component without its list.
  outbound(BROKEN_CONTACT, 50, "template", {
    name: "sin_botones",
    components: [{ type: "BODY", text: "Plantilla sin lista de botones" }, { type: "BUTTONS" }],
  }),
  // A BODY whose text is a number.
  outbound(BROKEN_CONTACT, 40, "template", { name: "cuerpo_numerico", components: [{ type: "BODY", text: 12345 }] }),
  // A header handle with broken percent-encoding.
  outbound(BROKEN_CONTACT, 30, "template", {
    name: "cabecera_rota",
    components: [
      { type: "HEADER", format: "DOCUMENT", example: { header_handle: [BROKEN_HANDLE] } },
      { type: "BODY", text: "Plantilla con cabecera mal codificada" },
    ],
  }),
  inboundFrom(BROKEN_CONTACT, 20, "text", { text: BROKEN_TEXTS.after }),
]);

await contactWithMessages(LOOKALIKE_CONTACT, () => [
  inboundFrom(LOOKALIKE_CONTACT, 50, "text", {
    text: "Anuncio con enlace parecido",
    referral: { source_url: LOOKALIKE_URL, source_type: "ad", headline: "Titular", thumbnail_url: LOOKALIKE_TAB_URL },
  }),
  inboundFrom(LOOKALIKE_CONTACT, 40, "image", {
    url: LOOKALIKE_TAB_URL,
    caption: "Imagen parecida",
    contentType: "image/png",
    id: "3",
    sha256: "x",
  }),
  inboundFrom(LOOKALIKE_CONTACT, 30, "contacts", [
    { name: { formatted_name: "Contacto parecido" }, urls: [{ url: LOOKALIKE_URL, type: "WORK" }] },
  ]),
  outbound(LOOKALIKE_CONTACT, 20, "template", {
    name: "boton_parecido",
    components: [
      { type: "BODY", text: "Plantilla con botón parecido" },
      { type: "BUTTONS", buttons: [{ type: "URL", text: "Botón parecido", url: LOOKALIKE_URL }] },
    ],
  }),
]);

// Meta's documented webhook shapes, as lib/channels/cloud-api/webhook.ts stores them.
const routed = { kind: "campaign" as const, id: null, reason: "none:no_campaign" };
await contactWithMessages(RENDER_CONTACT, () => [
  { ...outbound(RENDER_CONTACT, 90, "text", { text: RENDER.targetText }), providerMessageId: RENDER.target },
  { ...inboundFrom(RENDER_CONTACT, 89, "reaction", { message_id: RENDER.target, emoji: "👍" }), providerMessageId: "wamid.E2E_RENDER_R1" },
  { ...inboundFrom(RENDER_CONTACT, 88, "reaction", { message_id: RENDER.missing, emoji: "🎉" }), providerMessageId: "wamid.E2E_RENDER_R2" },
  {
    ...inboundFrom(RENDER_CONTACT, 87, "reaction", { message_id: { bad: true }, emoji: ["no"] }),
    providerMessageId: "wamid.E2E_RENDER_R3",
  },
  {
    ...inboundFrom(RENDER_CONTACT, 80, "order", {
      catalog_id: "1234567890",
      text: "Para el viernes",
      product_items: [
        { product_retailer_id: "SACO-ROJO-M", quantity: "2", item_price: "89900", currency: "COP" },
        { product_retailer_id: "BUFANDA-GRIS", quantity: "1", item_price: "35000", currency: "COP" },
      ],
    }),
    routedTo: routed,
  },
  { ...inboundFrom(RENDER_CONTACT, 79, "text", { text: "Segundo mensaje de la misma respuesta" }), routedTo: routed },
  { ...inboundFrom(RENDER_CONTACT, 78, "order", { product_items: "not a list", text: 12 }), routedTo: routed },
  inboundFrom(RENDER_CONTACT, 70, "nfm_reply", {
    name: "flow",
    body: "Sent",
    response_json: JSON.stringify({
      flow_token: "e2e-secret-flow-token",
      screen_0_Talla_0: "1_Mediana",
      screen_0_Comentarios_1: "De lana",
    }),
  }),
  inboundFrom(RENDER_CONTACT, 69, "nfm_reply", { name: "flow", response_json: "{not json" }),
  {
    ...outbound(RENDER_CONTACT, 60, "text", { text: `Tu código es \`\`\`${RENDER.monospace}\`\`\` y vence el *24*.` }),
    status: "SENDED" as const,
  },
  outbound(RENDER_CONTACT, 59, "text", { text: "Mensaje enviado" }),
  {
    ...outbound(RENDER_CONTACT, 58, "text", { text: "Mensaje que no salió" }),
    status: "FAILED" as const,
    error: { code: 131030, title: "Recipient not in allowed list", details: RENDER.failedDetails },
  },
  inboundFrom(RENDER_CONTACT, 50, "contacts", [
    {
      name: { formatted_name: "Pedro López" },
      phones: [
        { phone: "+57 310 555 1234", type: "CELL" },
        { phone: "+57 601 555 0000", type: "WORK" },
      ],
      emails: [{ email: "pedro@example.com", type: "HOME" }],
      birthday: "1990-05-14",
    },
  ]),
  inboundFrom(RENDER_CONTACT, 40, "call_permission_reply", {
    response: "accept",
    is_permanent: false,
    expiration_timestamp: String(RENDER.expires),
    response_source: "user_action",
  }),
  inboundFrom(RENDER_CONTACT, 30, "unknown", {
    code: 131051,
    title: "Message type unknown",
    message: "Message type unknown",
    error_data: { details: "Message type is currently not supported." },
    original_type: "hologram",
  }),
  outbound(RENDER_CONTACT, 20, "template", {
    name: "factura_mensual",
    components: [
      { type: "HEADER", format: "DOCUMENT", example: { header_handle: [RENDER.documentUrl] } },
      { type: "BODY", text: "Tu factura de noviembre" },
    ],
  }),
]);

// The templates page (e2e/templates.spec.ts): a template Meta rejected, with the history its
// sync and webhook left, and an agent of the plain `agent` role, who may read it but not sync.
const [rejected] = await db
  .insert(templates)
  .values({
    teamId,
    name: REJECTED_TEMPLATE.name,
    language: "es_CO",
    category: "MARKETING",
    status: "REJECTED",
    rejectedReason: REJECTED_TEMPLATE.reason,
    externalId: REJECTED_TEMPLATE.metaId,
    components: [{ type: "BODY", text: "¡{{1}}, llévate 2x1 en toda la tienda!", example: { body_text: [["María"]] } }],
  })
  .onConflictDoNothing()
  .returning();
if (rejected) {
  await db.insert(templateChanges).values([
    { teamId, templateId: rejected.id, field: "status", previous: null, value: "PENDING", source: "sync", metaAt: minutesAgo(120) },
    {
      teamId,
      templateId: rejected.id,
      field: "status",
      previous: "PENDING",
      value: "REJECTED",
      reason: REJECTED_TEMPLATE.reason,
      source: "webhook",
      metaAt: minutesAgo(60),
    },
  ]);
}
await db
  .insert(agents)
  .values({
    teamId,
    email: PLAIN_AGENT.email,
    name: PLAIN_AGENT.name,
    role: "agent",
    passwordHash: await hashPassword(PLAIN_AGENT.password),
  })
  .onConflictDoNothing();

await closeDb();
console.log(JSON.stringify({ prepared: true, team_id: teamId }));
