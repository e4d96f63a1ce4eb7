import type { OutboundMessage, OutboundTemplate } from "../types";

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
    components.push({
      type: "button",
      sub_type: "quick_reply",
      index: String(q.index),
      parameters: [{ type: "payload", payload: q.payload }],
    });
  }
  for (const u of m.urlButtons ?? []) {
    components.push({ type: "button", sub_type: "url", index: String(u.index), parameters: [{ type: "text", text: u.text }] });
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

type Obj = Record<string, unknown>;
/** Drops null and undefined fields: Graph refuses `"caption": null`. */
const compact = (o: Obj): Obj => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined));

/** The `type` object of a free-form message, from its stored 2.5 payload. */
function messageContent(m: OutboundMessage): Obj {
  const p = m.payload as Obj;
  switch (m.type) {
    case "text":
      return { preview_url: m.previewUrl ?? false, body: p.text };
    case "image":
    case "video":
      return compact({ id: m.mediaId, caption: p.caption });
    case "document":
      return compact({ id: m.mediaId, caption: p.caption, filename: p.filename });
    case "audio":
    case "sticker":
      return { id: m.mediaId };
    case "location":
      return compact({ latitude: Number(p.latitude), longitude: Number(p.longitude), name: p.name, address: p.address });
    case "quick_reply": {
      const content = p.content as { header?: string | null; text: string };
      const options = p.options as { id: string; title: string }[];
      return compact({
        type: "button",
        header: content.header ? { type: "text", text: content.header } : null,
        body: { text: content.text },
        action: { buttons: options.map((o) => ({ type: "reply", reply: { id: o.id, title: o.title } })) },
      });
    }
    case "list": {
      const items = p.items as { title?: string | null; rows: { id: string; title: string; description?: string | null }[] }[];
      return compact({
        type: "list",
        header: p.title ? { type: "text", text: p.title } : null,
        body: { text: p.body },
        action: {
          button: p.button,
          sections: items.map((s) =>
            compact({ title: s.title, rows: s.rows.map((r) => compact({ id: r.id, title: r.title, description: r.description })) }),
          ),
        },
      });
    }
    default:
      throw new Error(`Unsupported message type ${m.type}`);
  }
}

/** Our type name → the Cloud API's (`quick_reply` and `list` are interactive messages). */
const WIRE_TYPE: Record<string, string> = { quick_reply: "interactive", list: "interactive" };

/** The documented Cloud API body of a free-form message (POST /{phone_number_id}/messages). */
export function messageBody(m: OutboundMessage) {
  const type = WIRE_TYPE[m.type] ?? m.type;
  return {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to: m.to,
    ...(m.contextWamid ? { context: { message_id: m.contextWamid } } : {}),
    type,
    [type]: m.type === "contacts" ? m.payload : messageContent(m),
    ...(m.callbackData ? { biz_opaque_callback_data: m.callbackData } : {}),
  };
}

/** Marks an inbound message as read (documented body of POST /{phone_number_id}/messages). */
export function readBody(wamid: string) {
  return { messaging_product: "whatsapp", status: "read", message_id: wamid };
}
