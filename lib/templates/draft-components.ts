import { draftParameterFormat, formatOf, variablesOf, type DraftButton, type TemplateDraft } from "./draft-schema";
import type { TemplateButton, TemplateComponent } from "./schemas";

/**
 * A checked draft (./draft-schema.ts) in the two shapes it takes: Meta's create body
 * (`POST /{waba-id}/message_templates`) and our stored 2.1 components. Client-safe: the editor's
 * preview renders the stored shape, so what is shown is what is kept.
 */

const isUrl = (s: string) => /^https?:\/\//i.test(s);

/** The body's samples in the order of its variables (Meta's `body_text[0]` order). */
function bodySamples(d: TemplateDraft): { key: string; example: string }[] {
  return variablesOf(d.body.text).keys.map((key) => ({ key, example: d.body.examples[key] ?? "" }));
}

/**
 * Meta's create request (docs: message-templates "Creating templates"): `parameter_format`
 * POSITIONAL with `body_text`/`header_text` samples, or NAMED with `…_named_params`.
 */
export function graphCreateBody(d: TemplateDraft) {
  const named = draftParameterFormat(d) === "NAMED";
  const components: Record<string, unknown>[] = [];
  const h = d.header;
  if (h.format === "TEXT") {
    const key = variablesOf(h.text).keys[0];
    const example = !key
      ? undefined
      : named
        ? { header_text_named_params: [{ param_name: key, example: h.example ?? "" }] }
        : { header_text: [h.example ?? ""] };
    components.push({ type: "HEADER", format: "TEXT", text: h.text, ...(example ? { example } : {}) });
  } else if (h.format === "LOCATION") {
    components.push({ type: "HEADER", format: "LOCATION" });
  } else if (h.format !== "NONE") {
    components.push({ type: "HEADER", format: h.format, example: { header_handle: [h.example] } });
  }
  const samples = bodySamples(d);
  const bodyExample = !samples.length
    ? undefined
    : named
      ? { body_text_named_params: samples.map((s) => ({ param_name: s.key, example: s.example })) }
      : { body_text: [samples.map((s) => s.example)] };
  components.push({ type: "BODY", text: d.body.text, ...(bodyExample ? { example: bodyExample } : {}) });
  if (d.footer) components.push({ type: "FOOTER", text: d.footer });
  if (d.buttons.length) components.push({ type: "BUTTONS", buttons: d.buttons.map(graphButton) });
  return {
    name: d.name,
    language: d.language,
    category: d.category,
    parameter_format: named ? "NAMED" : "POSITIONAL",
    components,
  };
}

function graphButton(b: DraftButton): Record<string, unknown> {
  switch (b.type) {
    case "QUICK_REPLY":
      return { type: "QUICK_REPLY", text: b.text };
    case "URL":
      return { type: "URL", text: b.text, url: b.url, ...(variablesOf(b.url).count && b.example ? { example: [b.example] } : {}) };
    case "PHONE_NUMBER":
      return { type: "PHONE_NUMBER", text: b.text, phone_number: b.phone_number };
    case "COPY_CODE":
      return { type: "COPY_CODE", example: b.example };
  }
}

/**
 * The draft as stored (the contract's 2.1 structure, as the sync stores Meta's templates): the
 * samples in `example`, the body's in the order of its variables. Phone number and copy code
 * buttons have no place in 2.1 and need no value this service sends, so, as in the sync
 * (lib/channels/cloud-api/templates.ts), they are not stored and the buttons kept carry Meta's
 * position as `index` when it differs from theirs.
 */
export function storedComponents(d: TemplateDraft): TemplateComponent[] {
  const out: TemplateComponent[] = [];
  const h = d.header;
  if (h.format === "TEXT") {
    out.push({
      type: "HEADER",
      format: "TEXT",
      text: h.text,
      ...(variablesOf(h.text).count ? { example: { header_text: [h.example ?? ""] } } : {}),
    });
  } else if (h.format === "IMAGE" || h.format === "VIDEO" || h.format === "DOCUMENT") {
    out.push({ type: "HEADER", format: h.format, example: { header_handle: [h.example] } });
  }
  const samples = bodySamples(d);
  out.push({ type: "BODY", text: d.body.text, ...(samples.length ? { example: { body_text: [samples.map((s) => s.example)] } } : {}) });
  if (d.footer) out.push({ type: "FOOTER", text: d.footer });
  let position = 0;
  const kept = d.buttons.flatMap((b, metaIndex): TemplateButton[] => {
    if (b.type !== "QUICK_REPLY" && b.type !== "URL") return [];
    const index = metaIndex === position++ ? {} : { index: metaIndex };
    if (b.type === "QUICK_REPLY") return [{ type: "QUICK_REPLY", text: b.text, payload: b.text, ...index }];
    const example = b.example && variablesOf(b.url).count ? { example: [b.example] } : {};
    return [{ type: "URL", text: b.text, url: b.url, ...example, ...index }];
  });
  if (kept.length) out.push({ type: "BUTTONS", buttons: kept });
  return out;
}

/** A media header's sample when it is a link: the template's default attachment, so a send needs none of its own. */
export function defaultMediaOf(d: TemplateDraft): string | null {
  const h = d.header;
  return (h.format === "IMAGE" || h.format === "VIDEO" || h.format === "DOCUMENT") && isUrl(h.example) ? h.example : null;
}

/** Whether a draft's variables are named (for the form's samples' labels). */
export const isNamedKey = (key: string) => formatOf(key) === "NAMED";
