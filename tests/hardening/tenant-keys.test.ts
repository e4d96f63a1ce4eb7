import { randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { pgErrorCode } from "@/db/errors";
import {
  createAgent,
  createBot,
  createCampaign,
  createContact,
  createLabel,
  createNumber,
  createTeam,
  createTemplate,
} from "../helpers/factories";
import { createQueuedMessage } from "../helpers/delivery-factories";

/**
 * Tenant-safe by construction (migration 0009): every reference between two tenant-owned rows
 * includes team_id, so a write that links two teams is refused by the schema itself, whatever
 * the query that made it checked. Each case writes the link directly in SQL, as a query that
 * forgot its team filter would, and must fail with a foreign key violation (23503); the same
 * row within one team is accepted.
 */
async function team() {
  const t = await createTeam();
  const number = await createNumber(t.id);
  const contact = await createContact(t.id);
  const template = await createTemplate(t.id);
  return {
    id: t.id,
    number,
    contact,
    template,
    label: await createLabel(t.id),
    bot: await createBot(t.id),
    campaign: await createCampaign(t.id),
    agent: await createAgent(t.id),
    message: await createQueuedMessage({ teamId: t.id, waNumberId: number.id, contact, template }),
  };
}
type Team = Awaited<ReturnType<typeof team>>;

let a: Team;
let b: Team;
beforeAll(async () => {
  a = await team();
  b = await team();
});

async function run(statement: SQL): Promise<string | undefined> {
  const db = await getDb();
  try {
    await db.transaction(async (tx) => {
      await tx.execute(statement);
      // Only the error matters: nothing a case writes is kept.
      tx.rollback();
    });
  } catch (err) {
    return pgErrorCode(err) ?? (err instanceof Error && err.message === "Rollback" ? undefined : String(err));
  }
  return undefined;
}

/** An inbound message row of team `t` whose references are given by `refs` (ids of any team). */
const messageRow = (
  t: Team,
  refs: Partial<Record<"wa_number_id" | "contact_id" | "template_id" | "bot_id" | "campaign_id" | "reply_to_message_id", number>>,
) => {
  const r = { wa_number_id: t.number.id, contact_id: t.contact.id, ...refs };
  return sql`INSERT INTO messages (team_id, wa_number_id, contact_id, update_id, direction, type, status, template_id, bot_id, campaign_id, reply_to_message_id)
    VALUES (${t.id}, ${r.wa_number_id}, ${r.contact_id}, ${randomUUID()}, 'INBOUND', 'text', 'RECEIVED',
      ${r.template_id ?? null}, ${r.bot_id ?? null}, ${r.campaign_id ?? null}, ${r.reply_to_message_id ?? null})`;
};

/** Each reference: the statement that writes it from team A's row to the given team's row. */
const CASES: { name: string; write: (to: Team) => SQL }[] = [
  {
    name: "contact_labels → labels (another team's label on a contact)",
    write: (to) => sql`INSERT INTO contact_labels (team_id, contact_id, label_id) VALUES (${a.id}, ${a.contact.id}, ${to.label.id})`,
  },
  {
    name: "contact_labels → contacts (a label on another team's contact)",
    write: (to) => sql`INSERT INTO contact_labels (team_id, contact_id, label_id) VALUES (${a.id}, ${to.contact.id}, ${a.label.id})`,
  },
  { name: "messages → wa_numbers", write: (to) => messageRow(a, { wa_number_id: to.number.id }) },
  { name: "messages → contacts", write: (to) => messageRow(a, { contact_id: to.contact.id }) },
  { name: "messages → templates", write: (to) => messageRow(a, { template_id: to.template.id }) },
  { name: "messages → bots", write: (to) => messageRow(a, { bot_id: to.bot.id }) },
  { name: "messages → campaigns", write: (to) => messageRow(a, { campaign_id: to.campaign.id }) },
  { name: "messages → messages (reply_to_message_id)", write: (to) => messageRow(a, { reply_to_message_id: to.message.id }) },
  {
    name: "message_status_history → messages",
    write: (to) => sql`INSERT INTO message_status_history (team_id, message_id, status) VALUES (${a.id}, ${to.message.id}, 'SENT')`,
  },
  {
    name: "webhook_deliveries → messages",
    write: (to) => sql`INSERT INTO webhook_deliveries (team_id, target_kind, target_id, url, event, message_id, payload)
      VALUES (${a.id}, 'bot', ${a.bot.id}, 'https://example.com/hook', 'message.status', ${to.message.id}, '{}'::jsonb)`,
  },
  {
    name: "templates → wa_numbers",
    write: (to) => sql`INSERT INTO templates (team_id, wa_number_id, name, language, category, components)
      VALUES (${a.id}, ${to.number.id}, ${`t_${randomUUID().slice(0, 8)}`}, 'es', 'UTILITY', '[]'::jsonb)`,
  },
  {
    name: "agent_sessions → agents",
    write: (to) => sql`INSERT INTO agent_sessions (team_id, agent_id, token_hash, expires_at)
      VALUES (${a.id}, ${to.agent.id}, ${randomUUID()}, now() + interval '1 hour')`,
  },
];

describe("references between tenant-owned rows include team_id", () => {
  for (const c of CASES) {
    it(`${c.name}: refused across teams, accepted within one`, async () => {
      expect(await run(c.write(b))).toBe("23503");
      expect(await run(c.write(a))).toBeUndefined();
    });
  }

  it("moving a row to another team breaks its references the same way", async () => {
    const db = await getDb();
    await db.execute(sql`INSERT INTO contact_labels (team_id, contact_id, label_id) VALUES (${a.id}, ${a.contact.id}, ${a.label.id})`);
    expect(
      await run(sql`UPDATE contact_labels SET team_id = ${b.id} WHERE contact_id = ${a.contact.id} AND label_id = ${a.label.id}`),
    ).toBe("23503");
    expect(await run(sql`UPDATE labels SET team_id = ${b.id} WHERE id = ${a.label.id}`)).toBe("23503");
  });
});
