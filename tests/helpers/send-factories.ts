import { and, count, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { agentSessions, contacts, idempotencyKeys, media, messages } from "@/db/schema";
import { SESSION_COOKIE } from "@/lib/auth/authenticate";
import { hashToken } from "@/lib/auth/tokens";
import { randomSecret } from "@/lib/crypto/hash";
import type { AuthContext } from "@/lib/auth/context";
import { storeMedia } from "@/lib/media/service";
import { createAgent, createNumber, createTeam, createTemplate, mediaTemplateComponents } from "./factories";
import { createCloudNumber } from "./delivery-factories";
import type { TemplateComponent } from "@/lib/templates/schemas";

export const tokenCtx = (teamId: number): AuthContext => ({ teamId, actor: { kind: "token", tokenId: 0 } });

/** A team with a number and a text template (header {{1}}, body {{1}} {{2}}), ready to send. */
export async function sendingTeam() {
  const team = await createTeam();
  const number = await createNumber(team.id);
  const template = await createTemplate(team.id);
  return { team, number, template };
}

/**
 * A template like Meta's with a dynamic URL button at index 1 (after a quick reply) and a static
 * one at 2: a send needs button_params for index 1 (the order code in the link) and refuses one
 * for any other index. The body takes one value.
 */
export const urlButtonComponents: TemplateComponent[] = [
  { type: "BODY", text: "Hola {{1}}, tu pedido va en camino.", example: { body_text: [["Ana"]] } },
  {
    type: "BUTTONS",
    buttons: [
      { type: "QUICK_REPLY", text: "Gracias", payload: "THANKS" },
      { type: "URL", text: "Seguir pedido", url: "https://tienda.test/pedidos/{{1}}", example: ["https://tienda.test/pedidos/A-1"] },
      { type: "URL", text: "Tienda", url: "https://tienda.test/" },
    ],
  },
];

/** A team with a Cloud API number and a template with urlButtonComponents. */
export async function urlButtonTeam() {
  const team = await createTeam();
  const number = await createCloudNumber(team.id);
  const template = await createTemplate(team.id, { components: urlButtonComponents });
  return { team, number, template };
}

export async function createMediaTemplate(teamId: number, format: "IMAGE" | "DOCUMENT" | "VIDEO", defaultMediaPath: string | null = null) {
  return createTemplate(teamId, { components: mediaTemplateComponents(format), defaultMediaPath });
}

export async function uploadFor(teamId: number, bytes: Uint8Array, filename: string) {
  return storeMedia({ ctx: tokenCtx(teamId), input: { bytes, filename } });
}

export async function messageByUpdateId(updateId: string) {
  const db = await getDb();
  const [row] = await db.select().from(messages).where(eq(messages.updateId, updateId));
  return row;
}

export async function countMessages(teamId: number) {
  const db = await getDb();
  const [{ n }] = await db.select({ n: count() }).from(messages).where(eq(messages.teamId, teamId));
  return n;
}

export async function countContacts(teamId: number, customerNumber: string) {
  const db = await getDb();
  const [{ n }] = await db
    .select({ n: count() })
    .from(contacts)
    .where(and(eq(contacts.teamId, teamId), eq(contacts.customerNumber, customerNumber)));
  return n;
}

export async function idempotencyRow(teamId: number, key: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.teamId, teamId), eq(idempotencyKeys.key, key)));
  return row;
}

export async function mediaRow(path: string) {
  const db = await getDb();
  const [row] = await db.select().from(media).where(eq(media.path, path));
  return row;
}

/** A signed-in agent of the team (an owner unless told): the cookie header a browser would send, and the agent. */
export async function agentSession(teamId: number, overrides: Parameters<typeof createAgent>[2] = {}) {
  const agent = await createAgent(teamId, undefined, overrides);
  const token = randomSecret(32);
  const db = await getDb();
  await db.insert(agentSessions).values({
    agentId: agent.id,
    teamId,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + 3600_000),
  });
  // Cookie-authenticated writes must be same-origin (CSRF check in lib/auth/authenticate.ts).
  return { agent, headers: { cookie: `${SESSION_COOKIE}=${token}`, "sec-fetch-site": "same-origin" } };
}
