import { randomInt } from "node:crypto";
import { getDb, noteTeamWrite, type Db } from "@/db/client";
import { agents, bots, campaigns, contactLabels, contacts, labels, teams, templates } from "@/db/schema";
import { createToken } from "@/lib/auth/tokens";
import { addNumber } from "@/lib/numbers/service";
import { hashPassword } from "@/lib/auth/password";
import type { TemplateComponent } from "@/lib/templates/schemas";

/**
 * Test factories (openstatus style): each builds one valid row with overridable defaults. Each
 * counts as a write of this process for its team (noteTeamWrite), as an API write does: with a
 * read replica (the scale pass), the team's next reads then wait for the replica to replay the
 * row instead of reading a replica that has not seen it yet.
 */
let seq = 0;
const uniq = () => `${process.pid}${Date.now() % 100000}${++seq}`;

/**
 * Writes a test makes beside the API and the factories (raw SQL, bulk inserts, hand-made status
 * moves): runs `write` on the primary, then counts it as this process's write for the team, as
 * every factory does. Without the note, a replica probe that lands between the team's last noted
 * write and these rows can let its next read (lists, history, stats, reports) go to a read replica
 * that has not replayed them yet (the scale pass, db/replica.ts). The note comes even when `write`
 * throws: a part of it may have committed.
 */
export async function writeForTeam<T>(teamId: number, write: (db: Db) => Promise<T>): Promise<T> {
  const db = await getDb();
  try {
    return await write(db);
  } finally {
    noteTeamWrite(teamId);
  }
}

export async function createTeam(name = `Team ${uniq()}`) {
  const db = await getDb();
  const [team] = await db.insert(teams).values({ name }).returning();
  const { token } = await createToken({ input: { teamId: team.id, name: "test" } });
  noteTeamWrite(team.id);
  return { ...team, token };
}

/**
 * A number unique across the service (company numbers are unique globally): the prefix and 13
 * random digits, 15 in all (E.164's maximum). On a shared Postgres every test file of a run draws
 * from the same space, so the digits are random rather than derived from pid and time (which
 * collided once truncated); a repeat within this process is drawn again.
 */
const drawn = new Set<string>();
export function uniqueNumber(prefix = "57") {
  for (;;) {
    const digits = prefix + randomInt(1, 10) + String(randomInt(0, 1e12)).padStart(12, "0");
    if (!drawn.has(digits)) {
      drawn.add(digits);
      return digits;
    }
  }
}

export async function createNumber(teamId: number, overrides: Partial<Parameters<typeof addNumber>[0]["input"]> = {}) {
  const row = await addNumber({ input: { teamId, number: uniqueNumber(), displayName: "Ventas", ...overrides } });
  noteTeamWrite(teamId);
  return row;
}

export const textTemplateComponents: TemplateComponent[] = [
  { type: "HEADER", format: "TEXT", text: "Hola {{1}}" },
  { type: "BODY", text: "Tu pedido {{1}} llega el {{2}}.", example: { body_text: [["A-1", "lunes"]] } },
  { type: "FOOTER", text: "Tienda Demo" },
  {
    type: "BUTTONS",
    buttons: [
      { type: "QUICK_REPLY", text: "Gracias", payload: "THANKS" },
      { type: "URL", text: "Ver", url: "https://example.com/pedidos" },
    ],
  },
];

export function mediaTemplateComponents(format: "IMAGE" | "DOCUMENT" | "VIDEO"): TemplateComponent[] {
  return [
    { type: "HEADER", format, example: { header_handle: ["https://example.com/sample"] } },
    { type: "BODY", text: "Adjunto tu documento, {{1}}.", example: { body_text: [["Ana"]] } },
  ];
}

export async function createTemplate(teamId: number, overrides: Partial<typeof templates.$inferInsert> = {}) {
  const db = await getDb();
  const [row] = await db
    .insert(templates)
    .values({
      teamId,
      name: `tpl_${uniq()}`,
      language: "es_CO",
      category: "UTILITY",
      components: textTemplateComponents,
      ...overrides,
    })
    .returning();
  noteTeamWrite(teamId);
  return row;
}

export async function createLabel(teamId: number, overrides: Partial<typeof labels.$inferInsert> = {}) {
  const db = await getDb();
  const [row] = await db
    .insert(labels)
    .values({ teamId, title: `Etiqueta ${uniq()}`, bgColor: "#25d366", textColor: "#ffffff", ...overrides })
    .returning();
  noteTeamWrite(teamId);
  return row;
}

export async function createContact(teamId: number, overrides: Partial<typeof contacts.$inferInsert> & { labelIds?: number[] } = {}) {
  const db = await getDb();
  const { labelIds = [], ...values } = overrides;
  const number = uniqueNumber("52");
  const [row] = await db
    .insert(contacts)
    .values({ teamId, name: `Cliente ${uniq()}`, customerNumber: number, customerId: `cus_${number}`, ...values })
    .returning();
  if (labelIds.length) {
    await db.insert(contactLabels).values(labelIds.map((labelId) => ({ teamId, contactId: row.id, labelId })));
  }
  noteTeamWrite(teamId);
  return row;
}

export async function createBot(teamId: number, overrides: Partial<typeof bots.$inferInsert> = {}) {
  const db = await getDb();
  const [row] = await db
    .insert(bots)
    .values({ teamId, name: `Bot ${uniq()}`, ...overrides })
    .returning();
  noteTeamWrite(teamId);
  return row;
}

export async function createCampaign(teamId: number, overrides: Partial<typeof campaigns.$inferInsert> = {}) {
  const db = await getDb();
  const [row] = await db
    .insert(campaigns)
    .values({ teamId, name: `Campaña ${uniq()}`, ...overrides })
    .returning();
  noteTeamWrite(teamId);
  return row;
}

/** An agent of the team; an `owner` unless told (the permissive default: tests of roles say theirs). */
export async function createAgent(teamId: number, password = "secreto-123", overrides: Partial<typeof agents.$inferInsert> = {}) {
  const db = await getDb();
  const [row] = await db
    .insert(agents)
    .values({
      teamId,
      email: `agent${uniq()}@example.com`,
      name: "Agente Prueba",
      role: "owner",
      passwordHash: await hashPassword(password),
      ...overrides,
    })
    .returning();
  noteTeamWrite(teamId);
  return { ...row, password };
}
