import type { waNumbers, ProviderError } from "@/db/schema";

export type WaNumberRow = typeof waNumbers.$inferSelect;

/** A number with its decrypted credentials, as an adapter needs it. */
export type ChannelNumber = WaNumberRow & {
  secrets: { accessToken?: string; appSecret?: string; verifyToken?: string };
};

/** Provider-neutral template send; the adapter turns it into its wire format. */
export type OutboundTemplate = {
  to: string;
  name: string;
  language: string;
  header?:
    | { kind: "text"; text: string }
    | { kind: "media"; format: "IMAGE" | "DOCUMENT" | "VIDEO"; mediaId?: string; link?: string; filename?: string };
  /** Body values in `{{n}}` order; `name` set for named parameters. */
  body: { name?: string; text: string }[];
  /** Quick-reply button payloads by button index. */
  quickReplies: { index: number; payload: string }[];
  /** Values of URL buttons with a variable, by button index (the `{{1}}` of the link). */
  urlButtons?: { index: number; text: string }[];
  /** Echoed back by the provider in every status of this send (the message's update_id). */
  callbackData?: string;
};

/**
 * Provider-neutral free-form send (a reply inside the customer-service window): the message's
 * type and its stored 2.5 payload, with attachments already uploaded to the provider.
 */
export type OutboundMessage = {
  to: string;
  type: string;
  payload: Record<string, unknown> | unknown[];
  /** The provider's id of the uploaded attachment (media types). */
  mediaId?: string;
  /** Links previewed in a text message. */
  previewUrl?: boolean;
  /** wamid of the message this one answers (shown quoted). */
  contextWamid?: string | null;
  callbackData?: string;
};

export type SendOutcome =
  | { ok: true; providerMessageId: string }
  | {
      ok: false;
      retryable: boolean;
      error: ProviderError;
      retryAfterMs?: number;
      /** The request may have reached the provider (a timeout, a connection lost mid-request). */
      uncertain?: boolean;
      /** The rest of Meta's error body, for showing it (never stored with a message). */
      meta?: {
        type: string | null;
        subcode: number | null;
        fbtraceId: string | null;
        /** Meta's words for a person (`error_user_title: error_user_msg`), when it gives them (a template it refuses). */
        userMessage?: string | null;
      };
    };

export type MediaFile = { bytes: Uint8Array; contentType: string; filename: string; sha256: string };

/** Customer-side message, normalized to the contract's 2.5 payload of its type. */
export type InboundMessage = {
  providerMessageId: string;
  from: string | null;
  userId?: string | null;
  profileName?: string | null;
  timestamp: number;
  type: string;
  payload: Record<string, unknown> | unknown[];
  /** wamid of the business message this one answers, when the channel says so. */
  contextId?: string | null;
  /** Media the dashboard reaches through our proxy route. */
  providerMediaId?: string | null;
};

export type StatusUpdate = {
  providerMessageId: string;
  status: "sent" | "delivered" | "read" | "failed" | string;
  timestamp: number;
  error?: { code: number | null; title: string; details?: string | null } | null;
  /** What the send carried as callback data (our update_id), when the provider echoes it. */
  callbackData?: string | null;
  raw: unknown;
};

/** Where an adapter reports the statuses it produces itself (the delivery module's status path). */
export type StatusSink = (number: ChannelNumber, updates: StatusUpdate[]) => Promise<unknown>;

/** What an adapter that walks statuses in-process needs: where to report them, and how fast. */
export type StatusWalk = {
  report: StatusSink;
  stepMs?: number;
  /** The status the message already reached (a walk resumed after a restart); SENDED when new. */
  reached?: string;
};

export interface ChannelAdapter {
  sendTemplate(number: ChannelNumber, message: OutboundTemplate): Promise<SendOutcome>;
  /** A free-form message (text, media, location, contacts, interactive). */
  sendMessage(number: ChannelNumber, message: OutboundMessage): Promise<SendOutcome>;
  /** Marks a customer's message as read at the provider (the blue ticks). */
  markRead?(number: ChannelNumber, providerMessageId: string): Promise<{ ok: true } | Extract<SendOutcome, { ok: false }>>;
  /** Uploads a header attachment; returns the id the send refers to, or a send failure. */
  uploadMedia(number: ChannelNumber, file: MediaFile): Promise<{ ok: true; id: string } | Extract<SendOutcome, { ok: false }>>;
  /** An inbound attachment, streamed from the provider (channels that have them); null when unavailable. */
  downloadMedia?(number: ChannelNumber, mediaId: string): Promise<{ body: ReadableStream<Uint8Array>; contentType: string } | null>;
  /**
   * Called once the accepted send is committed, and again for a walk a restart interrupted (the
   * sandbox walks its statuses from here). Adapters with one report their statuses in-process.
   */
  afterAccepted?(number: ChannelNumber, providerMessageId: string, walk: StatusWalk): void;
}
