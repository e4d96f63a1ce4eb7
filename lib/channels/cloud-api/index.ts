import type { ChannelAdapter } from "../types";
import { graphFetch } from "./client";
import { templateBody } from "./send";

type SendResponse = { messages?: { id?: string }[] };

/** WhatsApp Business Cloud API (Graph API); base URL and version from GRAPH_API_BASE_URL / GRAPH_API_VERSION. */
export const cloudApiAdapter: ChannelAdapter = {
  async sendTemplate(number, message) {
    const res = await graphFetch<SendResponse>(number, `${number.phoneNumberId}/messages`, { json: templateBody(message) });
    if (!res.ok) return res;
    const id = res.body?.messages?.[0]?.id;
    if (!id) return { ok: false, retryable: false, error: { code: null, title: "Graph API answered without a message id" } };
    return { ok: true, providerMessageId: id };
  },

  async uploadMedia(number, file) {
    const form = new FormData();
    form.set("messaging_product", "whatsapp");
    form.set("type", file.contentType);
    form.set("file", new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.contentType }), file.filename);
    const res = await graphFetch<{ id?: string }>(number, `${number.phoneNumberId}/media`, { form });
    if (!res.ok) return res;
    if (!res.body?.id) return { ok: false, retryable: false, error: { code: null, title: "Graph API answered without a media id" } };
    return { ok: true, id: res.body.id };
  },
};
