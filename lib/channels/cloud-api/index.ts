import type { ChannelAdapter, ChannelNumber, SendOutcome } from "../types";
import { graphFetch, type GraphSettings } from "./client";
import { downloadMedia } from "./media";
import { messageBody, readBody, templateBody } from "./send";

type SendResponse = { messages?: { id?: string }[] };

/**
 * WhatsApp Business Cloud API (Graph API). Where Graph is and its timeout come from `graph`,
 * read at each call (the delivery settings: GRAPH_API_BASE_URL, GRAPH_API_VERSION, GRAPH_TIMEOUT_MS).
 */
export function createCloudApiAdapter(graph: () => GraphSettings): ChannelAdapter {
  async function send(number: ChannelNumber, body: unknown): Promise<SendOutcome> {
    const res = await graphFetch<SendResponse>(graph(), number, `${number.phoneNumberId}/messages`, { json: body });
    if (!res.ok) return res;
    const id = res.body?.messages?.[0]?.id;
    if (!id) return { ok: false, retryable: false, error: { code: null, title: "Graph API answered without a message id" } };
    return { ok: true, providerMessageId: id };
  }
  return {
    sendTemplate: (number, message) => send(number, templateBody(message)),
    sendMessage: (number, message) => send(number, messageBody(message)),

    async markRead(number, wamid) {
      const res = await graphFetch<{ success?: boolean }>(graph(), number, `${number.phoneNumberId}/messages`, { json: readBody(wamid) });
      return res.ok ? { ok: true } : res;
    },

    async uploadMedia(number, file) {
      const form = new FormData();
      form.set("messaging_product", "whatsapp");
      form.set("type", file.contentType);
      form.set("file", new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.contentType }), file.filename);
      const res = await graphFetch<{ id?: string }>(graph(), number, `${number.phoneNumberId}/media`, { form });
      if (!res.ok) return res;
      if (!res.body?.id) return { ok: false, retryable: false, error: { code: null, title: "Graph API answered without a media id" } };
      return { ok: true, id: res.body.id };
    },

    downloadMedia: (number, mediaId) => downloadMedia(graph(), number, mediaId),
  };
}
