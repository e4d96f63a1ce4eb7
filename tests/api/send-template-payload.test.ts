import { describe, expect, it } from "vitest";
import { buildTemplatePayload } from "@/lib/messages/template-payload";
import type { Template } from "@/lib/templates/schemas";

const template = (components: Template["components"]): Template => ({
  id: "42",
  name: "aviso",
  status: "APPROVED",
  category: "UTILITY",
  language: "es_CO",
  rejected_reason: "NONE",
  components,
});

describe("buildTemplatePayload (ruling 11)", () => {
  it("writes the sent values into the HEADER and BODY texts and leaves the rest alone", () => {
    const t = template([
      { type: "HEADER", format: "TEXT", text: "Hola {{1}}" },
      { type: "BODY", text: "Pedido {{1}}: llega el {{2}}, {{1}}.", example: { body_text: [["A", "B"]] } },
      { type: "FOOTER", text: "Pie {{1}}" },
      { type: "BUTTONS", buttons: [{ type: "URL", text: "Ver", url: "https://x.test/{{1}}" }] },
    ]);
    const out = buildTemplatePayload(t, { header: { "1": "Ana" }, body: { "1": "A-7", "2": "lunes" }, mediaUrl: null });
    expect(out).toEqual({
      ...t,
      components: [
        { type: "HEADER", format: "TEXT", text: "Hola Ana" },
        { type: "BODY", text: "Pedido A-7: llega el lunes, A-7.", example: { body_text: [["A", "B"]] } },
        { type: "FOOTER", text: "Pie {{1}}" },
        { type: "BUTTONS", buttons: [{ type: "URL", text: "Ver", url: "https://x.test/{{1}}" }] },
      ],
    });
  });

  it("puts the attachment URL first in example.header_handle of a media header", () => {
    const t = template([
      { type: "HEADER", format: "IMAGE", example: { header_handle: ["https://sample.test/a.png", "second"] } },
      { type: "BODY", text: "Mira esto" },
    ]);
    const out = buildTemplatePayload(t, { header: {}, body: {}, mediaUrl: "http://app.test/api/v1/media/uploads/team1/x.png" });
    expect(out.components[0]).toEqual({
      type: "HEADER",
      format: "IMAGE",
      example: { header_handle: ["http://app.test/api/v1/media/uploads/team1/x.png"] },
    });
    const noExample = buildTemplatePayload(
      template([
        { type: "HEADER", format: "VIDEO" },
        { type: "BODY", text: "." },
      ]),
      {
        header: {},
        body: {},
        mediaUrl: "https://cdn.test/v.mp4",
      },
    );
    expect(noExample.components[0]).toEqual({ type: "HEADER", format: "VIDEO", example: { header_handle: ["https://cdn.test/v.mp4"] } });
  });

  it("does not modify the template it is given, and keeps values literal", () => {
    const t = template([{ type: "BODY", text: "Hola {{1}}", example: { body_text: [["x"]] } }]);
    const before = structuredClone(t);
    const out = buildTemplatePayload(t, { header: {}, body: { "1": "$& {{2}} $1" }, mediaUrl: null });
    expect(t).toEqual(before);
    expect(out.components[0]).toMatchObject({ text: "Hola $& {{2}} $1" });
    (out.components[0] as { example: { body_text: string[][] } }).example.body_text[0][0] = "changed";
    expect(t).toEqual(before);
  });
});
