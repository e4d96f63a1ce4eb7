import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { broadcastRejections, messages } from "@/db/schema";
import { createContact, createLabel, createTeam, createTemplate } from "../helpers/factories";

/** A team with a template (header {{1}}, body {{1}} {{2}}) and two labels. */
export async function broadcastTeam() {
  const team = await createTeam();
  const template = await createTemplate(team.id);
  const vip = await createLabel(team.id, { title: "VIP" });
  const promo = await createLabel(team.id, { title: "Promo" });
  const baja = await createLabel(team.id, { title: "Baja" });
  return { team, template, labels: { vip, promo, baja } };
}

export const body = (over: Record<string, unknown> & { wa_number: string; template_name: string; audience: unknown }) => ({
  name: "Black Friday",
  header_param: { key: "1", value: "{{name}}" },
  body_params: [
    { key: "1", value: "BF-{{customer_id}}" },
    { key: "2", value: "viernes" },
  ],
  ...over,
});

export async function broadcastMessages(teamId: number, broadcastId: number) {
  const db = await getDb();
  return db
    .select()
    .from(messages)
    .where(and(eq(messages.teamId, teamId), eq(messages.broadcastId, broadcastId)));
}

export async function rejectionsOf(teamId: number, broadcastId: number) {
  const db = await getDb();
  return db
    .select()
    .from(broadcastRejections)
    .where(and(eq(broadcastRejections.teamId, teamId), eq(broadcastRejections.broadcastId, broadcastId)));
}

export { createContact, createTemplate };
