import { fillPlaceholders, type Template } from "@/lib/templates/schemas";
import { buildTemplatePayload, type SentValues } from "./template-payload";
import type { PayloadSlots } from "./outbound-repo";

/** A recipient's own part of a template payload: its filled HEADER and BODY texts, its filled BUTTONS component. */
export type FilledSlots = { h: string | null; b: string | null; k: unknown };

/**
 * Where a template's per-recipient values land in its payload, for statements that write many
 * recipients of one template (outbound-repo.ts insertOutboundBatch, insertBulkToContacts): the
 * payload built once, and per recipient only the texts that differ, which Postgres sets into it.
 * A recipient's stored payload is then the same JSON buildTemplatePayload gives it, without a copy
 * of the whole template per recipient. `withButtons`: the recipients fill dynamic URL buttons.
 */
export function payloadSlots(dto: Template, withButtons: boolean) {
  const headerAt = dto.components.findIndex((c) => c.type === "HEADER" && c.format === "TEXT" && c.text !== undefined);
  const bodyAt = dto.components.findIndex((c) => c.type === "BODY");
  const buttonsAt = withButtons ? dto.components.findIndex((c) => c.type === "BUTTONS") : -1;
  const textAt = (i: number) => {
    const c = i >= 0 ? dto.components[i] : undefined;
    return c && (c.type === "HEADER" || c.type === "BODY") ? c.text : undefined;
  };
  const headerText = textAt(headerAt);
  const bodyText = textAt(bodyAt);
  const slots: PayloadSlots = {
    headerAt: headerAt >= 0 ? headerAt : null,
    bodyAt: bodyAt >= 0 ? bodyAt : null,
    buttonsAt: buttonsAt >= 0 ? buttonsAt : null,
  };
  return {
    slots,
    /** One recipient's filled texts (and buttons), for the slots above. */
    fill: (values: SentValues): FilledSlots => ({
      h: headerText !== undefined ? fillPlaceholders(headerText, values.header) : null,
      b: bodyText !== undefined ? fillPlaceholders(bodyText, values.body) : null,
      k: buttonsAt >= 0 ? buildTemplatePayload(dto, values).components[buttonsAt] : null,
    }),
  };
}
