import { PREVIEW_WORDS } from "@/lib/conversations/preview";
import type { MessageKey } from "@/lib/i18n";

type Word = keyof typeof PREVIEW_WORDS;
const KEY: Record<Word, MessageKey> = {
  image: "preview.image",
  video: "preview.video",
  audio: "preview.audio",
  document: "preview.document",
  sticker: "preview.sticker",
  reaction: "preview.reaction",
  unsupported: "preview.unsupported",
  callsAccepted: "preview.callsAccepted",
  callsRejected: "preview.callsRejected",
};
/** The leading pictogram of a preview gives way to the list's drawn icon. */
const LEADING_PICTOGRAM = /^(?:📷|🎥|🎤|📄|📋|📍|👤|☰|📞)\s*/u;

/**
 * The server's preview of a conversation's last message (Spanish fixed words, the customer's own
 * text after them) as the list shows it: the fixed words in the agent's language, without the
 * pictogram. Only a preview that starts with one of those words exactly is changed.
 */
export function previewText(preview: string, t: (key: MessageKey) => string): string {
  for (const word of Object.keys(PREVIEW_WORDS) as Word[]) {
    const spanish = PREVIEW_WORDS[word];
    if (preview === spanish || preview.startsWith(`${spanish} `)) {
      preview = t(KEY[word]) + preview.slice(spanish.length);
      break;
    }
  }
  return preview.replace(LEADING_PICTOGRAM, "");
}
