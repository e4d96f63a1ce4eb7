"use client";
import type { ComponentType } from "react";
import { AudioMessage, DocumentMessage, ImageMessage, StickerMessage, VideoMessage } from "./media";
import { ButtonMessage, ButtonReplyMessage, ListMessage, ListReplyMessage, QuickReplyMessage } from "./interactive";
import { ContactsMessage, LocationMessage, TemplateMessage, TextMessage } from "./informational";
import { CallReplyMessage, CallRequestMessage, FallbackMessage, SystemMessage, UnknownMessage, UnsupportedMessage } from "./system";
import { FlowReplyMessage, OrderMessage, ReactionMessage } from "./commerce";
import { MessageBoundary } from "./message-boundary";

/** One renderer per payload type of spec 2.5; the list is open, so anything else gets the fallback. */
const RENDERERS: Record<string, ComponentType<{ payload: unknown }>> = {
  text: TextMessage,
  image: ImageMessage,
  audio: AudioMessage,
  video: VideoMessage,
  document: DocumentMessage,
  sticker: StickerMessage,
  list: ListMessage,
  quick_reply: QuickReplyMessage,
  list_reply: ListReplyMessage,
  button_reply: ButtonReplyMessage,
  button: ButtonMessage,
  template: TemplateMessage,
  location: LocationMessage,
  contacts: ContactsMessage,
  system: SystemMessage,
  unknown: UnknownMessage,
  unsupported: UnsupportedMessage,
  call_permission_request: CallRequestMessage,
  call_permission_reply: CallReplyMessage,
  // Beyond the contract's list, as WhatsApp sends them (lib/channels/cloud-api/webhook.ts).
  reaction: ReactionMessage,
  order: OrderMessage,
  nfm_reply: FlowReplyMessage,
};

/**
 * A message's payload by its type. Payloads are stored as received, so every renderer treats every
 * field as untrusted; should one still throw, this message alone falls back to its fields.
 */
export function PayloadView({ type, payload }: { type: string | null; payload: unknown }) {
  const Renderer = type ? RENDERERS[type] : undefined;
  if (!Renderer) return <FallbackMessage type={type ?? "?"} payload={payload} />;
  return (
    <MessageBoundary resetKey={payload} fallback={<FallbackMessage type={type ?? "?"} payload={payload} unrenderable />}>
      <Renderer payload={payload} />
    </MessageBoundary>
  );
}
