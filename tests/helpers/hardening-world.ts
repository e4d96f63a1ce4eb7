import { sql } from "drizzle-orm";
import { getDb, rowsOf } from "@/db/client";
import { sendTemplateInput } from "@/lib/messages/send-schemas";
import { sendTemplate } from "@/lib/messages/send-service";
import { pdfBytes } from "../fixtures/media-bytes";
import { sendBody } from "./hardening-routes";
import { createBot, createCampaign, createContact, createLabel, createNumber, createTeam, createTemplate } from "./factories";
import { createMediaTemplate, tokenCtx, uploadFor } from "./send-factories";
import { insertMessages } from "./history-factories";

/**
 * A team with one of everything an endpoint can name: a sandbox number, a text and a DOCUMENT
 * template, labels, a labelled contact, a bot, a campaign, an uploaded PDF, a sent message and a
 * message from the contact (its 24-hour reply window open).
 */
export async function createWorld() {
  const team = await createTeam();
  const number = await createNumber(team.id);
  const template = await createTemplate(team.id);
  const docTemplate = await createMediaTemplate(team.id, "DOCUMENT");
  const labels = [await createLabel(team.id), await createLabel(team.id), await createLabel(team.id)];
  const contact = await createContact(team.id, { labelIds: [labels[0].id] });
  const bot = await createBot(team.id);
  const campaign = await createCampaign(team.id);
  const upload = await uploadFor(team.id, pdfBytes(), "doc.pdf");
  const sent = await sendTemplate({
    ctx: tokenCtx(team.id),
    input: sendTemplateInput.parse({ ...sendBody({ number, template }), destination: contact.customerNumber }),
    idempotency: null,
  });
  const updateId = (sent.body as { data: { update_id: string } }).data.update_id;
  await insertMessages({ team, number, contact }, [{ payload: { text: "hola" } }]);
  return { team, token: team.token, number, template, docTemplate, labels, contact, bot, campaign, mediaPath: upload.media_path, updateId };
}
export type World = Awaited<ReturnType<typeof createWorld>>;

/**
 * A digest of everything a team owns that an endpoint could write: equal digests before and after
 * a request mean the request changed nothing of that team.
 */
export async function teamDigest(teamId: number): Promise<string> {
  const db = await getDb();
  const res = await db.execute(sql`
    SELECT concat_ws('|',
      (SELECT count(*) || ':' || coalesce(max(id), 0) || ':' || coalesce(md5(string_agg(status || coalesce(locked_until::text, ''), ',' ORDER BY id)), '') FROM messages WHERE team_id = ${teamId}),
      (SELECT count(*) || ':' || coalesce(md5(string_agg(id || name || coalesce(customer_id, '') || customer_number, ',' ORDER BY id)), '') FROM contacts WHERE team_id = ${teamId}),
      (SELECT count(*) || ':' || coalesce(md5(string_agg(id || title || coalesce(description, '') || bg_color || text_color, ',' ORDER BY id)), '') FROM labels WHERE team_id = ${teamId}),
      (SELECT count(*) || ':' || coalesce(md5(string_agg(contact_id || '-' || label_id, ',' ORDER BY contact_id, label_id)), '') FROM contact_labels WHERE team_id = ${teamId}),
      (SELECT count(*) FROM media WHERE team_id = ${teamId}),
      (SELECT count(*) FROM idempotency_keys WHERE team_id = ${teamId}),
      (SELECT count(*) FROM webhook_deliveries WHERE team_id = ${teamId}),
      (SELECT count(*) FROM message_status_history WHERE team_id = ${teamId}),
      (SELECT count(*) FROM templates WHERE team_id = ${teamId}),
      (SELECT count(*) FROM bots WHERE team_id = ${teamId}),
      (SELECT count(*) FROM campaigns WHERE team_id = ${teamId}),
      (SELECT count(*) || ':' || coalesce(md5(string_agg(id || status, ',' ORDER BY id)), '') FROM broadcasts WHERE team_id = ${teamId}),
      (SELECT count(*) FROM broadcast_rejections WHERE team_id = ${teamId})
    ) AS digest`);
  return rowsOf<{ digest: string }>(res)[0].digest;
}
