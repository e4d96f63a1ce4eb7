import type { inboxListEs } from "./inbox-list.es";

export const inboxListEn: Record<keyof typeof inboxListEs, string> = {
  "inbox.outboundOnly": "Sent, no reply",
  "inbox.outboundOnlyHint": "Conversations a broadcast or a send opened, where the customer has not written yet.",
  "inbox.order": "Order",
  "inbox.orderNewest": "Newest",
  "inbox.orderWaiting": "Waiting longest",
  "inbox.waitingSince": "Waiting since {when}",
  "preview.image": "Image",
  "preview.video": "Video",
  "preview.audio": "Audio",
  "preview.document": "Document",
  "preview.sticker": "Sticker",
  "preview.reaction": "Reaction",
  "preview.unsupported": "Unsupported message",
  "preview.callsAccepted": "Calls allowed",
  "preview.callsRejected": "Calls declined",
};
