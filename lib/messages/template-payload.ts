import {
  fillPlaceholders,
  metaButtonIndex,
  placeholderKeys,
  withoutButtonIndexes,
  type Template,
  type TemplateComponent,
} from "@/lib/templates/schemas";

export type SentValues = {
  /** `{{key}}` → value for the HEADER text. */
  header: Record<string, string>;
  /** `{{key}}` → value for the BODY text. */
  body: Record<string, string>;
  /** The attachment's URL, for a media header. */
  mediaUrl: string | null;
  /** Button index (Meta's, metaButtonIndex) → the value of its URL's `{{1}}` (URL buttons with a variable). */
  buttons?: Record<number, string>;
};

/**
 * The stored `payload` of a sent template (ruling 11): the template's 2.1 structure with the sent
 * values written into the HEADER and BODY texts and, for a media header, the attachment's URL as
 * `example.header_handle[0]`, and each dynamic URL button's link with its value, so the history shows what the customer received. Pure: the
 * template is not modified. The buttons' `index` (Meta's position, synced templates) picks the
 * value and is then left out: the payload is the 2.1 structure.
 */
export function buildTemplatePayload(template: Template, values: SentValues): Template {
  return { ...template, components: withoutButtonIndexes(template.components.map((c) => fillComponent(structuredClone(c), values))) };
}

function fillComponent(c: TemplateComponent, values: SentValues): TemplateComponent {
  if (c.type === "BODY") return { ...c, text: fillPlaceholders(c.text, values.body) };
  if (c.type === "BUTTONS") {
    const filled = values.buttons ?? {};
    return {
      ...c,
      buttons: c.buttons.map((b, position) => {
        const i = metaButtonIndex(b, position);
        return b.type === "URL" && i in filled
          ? { ...b, url: fillPlaceholders(b.url, Object.fromEntries(placeholderKeys(b.url).map((k) => [k, filled[i]]))) }
          : b;
      }),
    };
  }
  if (c.type !== "HEADER") return c;
  if (c.format === "TEXT") return c.text === undefined ? c : { ...c, text: fillPlaceholders(c.text, values.header) };
  if (!values.mediaUrl) return c;
  return { ...c, example: { ...c.example, header_handle: [values.mediaUrl] } };
}
