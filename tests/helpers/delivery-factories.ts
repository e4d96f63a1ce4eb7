import { createHash, createHmac, randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { sql } from "drizzle-orm";
import { getDb, noteTeamWrite } from "@/db/client";
import { media, messageStatusHistory, messages, webhookDeliveries } from "@/db/schema";
import { createNumber, uniqueNumber } from "./factories";

/** Factories for the delivery tests: Cloud API numbers, queued sends, signed webhook posts. */
let seq = 0;
const uniq = () => `${process.pid}${Date.now() % 1_000_000}${++seq}`;

export async function createCloudNumber(
  teamId: number,
  overrides: { messagesPerSecond?: number; appSecret?: string; businessAccountId?: string } = {},
) {
  const secrets = {
    accessToken: `EAAG${uniq()}`,
    appSecret: overrides.appSecret ?? `app-secret-${uniq()}`,
    verifyToken: `verify-${uniq()}`,
  };
  const phoneNumberId = `1${uniq()}`.slice(0, 15);
  const businessAccountId = overrides.businessAccountId ?? `WABA${uniq()}`;
  const dto = await createNumber(teamId, {
    provider: "cloud_api",
    phoneNumberId,
    businessAccountId,
    credentials: secrets,
    messagesPerSecond: overrides.messagesPerSecond ?? 80,
  });
  return { ...dto, phoneNumberId, businessAccountId, secrets };
}

export async function createSandboxNumber(teamId: number, overrides: { messagesPerSecond?: number } = {}) {
  return createNumber(teamId, { provider: "sandbox", messagesPerSecond: overrides.messagesPerSecond ?? 80 });
}

export async function createQueuedMessage(input: {
  teamId: number;
  waNumberId: number;
  contact: { id: number; customerNumber: string | null; customerId: string | null };
  template: { id: number; name: string; language: string };
  bodyParams?: { key: string; value: string }[];
  headerParam?: { key: string; value: string } | null;
  mediaPath?: string | null;
  responseHandler?: "CAMPAIGN" | "CHATBOT";
  campaignId?: number | null;
  botId?: number | null;
}) {
  const db = await getDb();
  const [row] = await db
    .insert(messages)
    .values({
      teamId: input.teamId,
      waNumberId: input.waNumberId,
      contactId: input.contact.id,
      updateId: randomUUID(),
      customerNumber: input.contact.customerNumber,
      customerId: input.contact.customerId,
      sender: "SYSTEM",
      direction: "OUTBOUND",
      type: "template",
      status: "QUEUED",
      payload: { name: input.template.name },
      templateId: input.template.id,
      templateName: input.template.name,
      templateLanguage: input.template.language,
      sendParams: { header_param: input.headerParam ?? null, body_params: input.bodyParams ?? [] },
      mediaPath: input.mediaPath ?? null,
      responseHandler: input.responseHandler ?? "CAMPAIGN",
      campaignId: input.campaignId ?? null,
      botId: input.botId ?? null,
      nextAttemptAt: sql`now()`,
    })
    .returning();
  noteTeamWrite(input.teamId);
  return row;
}

export async function createMediaFile(teamId: number, ext = "jpg", contentType = "image/jpeg") {
  const db = await getDb();
  const content = Buffer.from(`fake-bytes-${uniq()}`);
  const [row] = await db
    .insert(media)
    .values({
      teamId,
      path: `uploads/team${teamId}/${randomUUID()}.${ext}`,
      originalName: `foto.${ext}`,
      contentType,
      size: content.length,
      sha256: createHash("sha256").update(content).digest("hex"),
      content,
    })
    .returning();
  noteTeamWrite(teamId);
  return row;
}

export async function messageById(id: number) {
  const db = await getDb();
  const [row] = await db.select().from(messages).where(eq(messages.id, id));
  return row;
}

export async function eventsOfMessage(id: number) {
  const db = await getDb();
  return db.select().from(messageStatusHistory).where(eq(messageStatusHistory.messageId, id)).orderBy(messageStatusHistory.id);
}

export async function deliveriesOfTeam(teamId: number) {
  const db = await getDb();
  return db.select().from(webhookDeliveries).where(eq(webhookDeliveries.teamId, teamId)).orderBy(webhookDeliveries.id);
}

export function sign(secret: string, raw: string) {
  return `sha256=${createHmac("sha256", secret).update(raw).digest("hex")}`;
}

/** POSTs a webhook body as Meta does: raw JSON with X-Hub-Signature-256 over those exact bytes. */
export async function postWebhook(baseUrl: string, body: unknown, secret: string | null, signature?: string) {
  const raw = JSON.stringify(body);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (signature !== undefined) headers["x-hub-signature-256"] = signature;
  else if (secret) headers["x-hub-signature-256"] = sign(secret, raw);
  const res = await fetch(`${baseUrl}/api/v1/webhooks/whatsapp`, { method: "POST", headers, body: raw });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: res.status, body: parsed };
}

export { waitFor } from "./wait";

export { uniqueNumber };

/** Statuses of several messages in one query (tests poll this; per-row polling would load PGlite). */
export async function statusesOf(ids: number[]) {
  const db = await getDb();
  const rows = await db.select({ id: messages.id, status: messages.status }).from(messages).where(inArray(messages.id, ids));
  return rows;
}
