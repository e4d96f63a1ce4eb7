import { metaButtonIndex, placeholderKeys, type TemplateComponent } from "./schemas";

/**
 * What a template says about the values a send fills in: its URL buttons with a variable, the
 * examples Meta's template format carries for each `{{n}}`, and the text around each one. Pure,
 * shared by the send API (lib/messages/send-params.ts) and the send form.
 */

export type DynamicUrlButton = { index: number; url: string; text: string; example?: string };

/**
 * The buttons whose URL carries a variable, by their index in Meta's template (metaButtonIndex:
 * their position in BUTTONS unless a synced template stored another).
 */
export function dynamicUrlButtons(components: TemplateComponent[]): DynamicUrlButton[] {
  const buttons = components.find((c) => c.type === "BUTTONS");
  if (!buttons) return [];
  return buttons.buttons.flatMap((b, position) =>
    b.type === "URL" && placeholderKeys(b.url).length
      ? [{ index: metaButtonIndex(b, position), url: b.url, text: b.text, example: b.example?.[0] }]
      : [],
  );
}

/**
 * The example of `{{key}}` in a text whose examples are listed in order (`example.body_text[0]`,
 * `example.header_text`): numbered keys by their number, named ones by their position.
 */
export function exampleOf(text: string | undefined, examples: readonly string[] | undefined, key: string): string | undefined {
  if (!examples?.length) return undefined;
  const i = /^\d+$/.test(key) ? Number(key) - 1 : placeholderKeys(text).indexOf(key);
  return i >= 0 ? examples[i] : undefined;
}

/** The value a URL button's example shows for its variable: the example link minus the URL's fixed parts. */
export function buttonExampleValue(b: DynamicUrlButton): string | undefined {
  if (!b.example) return undefined;
  const [before, after = ""] = b.url.split(/\{\{\s*[A-Za-z0-9_]+\s*\}\}/);
  if (!b.example.startsWith(before) || !b.example.endsWith(after)) return undefined;
  return b.example.slice(before.length, b.example.length - after.length) || undefined;
}

/** The words around `{{key}}` in a text (`…tu pedido {{1}} llega el…`), at most `room` characters each side. */
export function contextOf(text: string | undefined, key: string, room = 32): string | undefined {
  if (!text) return undefined;
  const m = new RegExp(`\\{\\{\\s*${key}\\s*\\}\\}`).exec(text);
  if (!m) return undefined;
  let start = Math.max(0, m.index - room);
  let end = Math.min(text.length, m.index + m[0].length + room);
  // Whole words: cut at a space when the window falls inside one.
  if (start > 0) start = text.indexOf(" ", start) + 1 || start;
  if (end < text.length) end = text.lastIndexOf(" ", end) > m.index + m[0].length ? text.lastIndexOf(" ", end) : end;
  const flat = (s: string) => s.replace(/\s+/g, " ");
  return `${start > 0 ? "…" : ""}${flat(text.slice(start, end).trim())}${end < text.length ? "…" : ""}`;
}
