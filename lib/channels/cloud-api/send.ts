import type { OutboundTemplate } from "../types";

/** The documented Cloud API body of a template message (POST /{phone_number_id}/messages). */
export function templateBody(m: OutboundTemplate) {
  const components: Record<string, unknown>[] = [];
  if (m.header?.kind === "text") {
    components.push({ type: "header", parameters: [{ type: "text", text: m.header.text }] });
  } else if (m.header?.kind === "media") {
    const kind = m.header.format.toLowerCase();
    const media: Record<string, string> = m.header.mediaId ? { id: m.header.mediaId } : { link: m.header.link ?? "" };
    if (kind === "document" && m.header.filename) media.filename = m.header.filename;
    components.push({ type: "header", parameters: [{ type: kind, [kind]: media }] });
  }
  if (m.body.length) {
    components.push({
      type: "body",
      parameters: m.body.map((p) => (p.name ? { type: "text", parameter_name: p.name, text: p.text } : { type: "text", text: p.text })),
    });
  }
  for (const q of m.quickReplies) {
    components.push({ type: "button", sub_type: "quick_reply", index: String(q.index), parameters: [{ type: "payload", payload: q.payload }] });
  }
  return {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to: m.to,
    type: "template",
    template: { name: m.name, language: { code: m.language }, components },
    // Echoed in every status webhook of this send: how a send whose answer was lost is recognised.
    ...(m.callbackData ? { biz_opaque_callback_data: m.callbackData } : {}),
  };
}
