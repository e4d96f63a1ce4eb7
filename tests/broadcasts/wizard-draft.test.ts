import { describe, expect, it } from "vitest";
import { checkStep, emptyDraft, stepOfField, toRequest, withTemplate } from "@/components/broadcasts/wizard/draft";
import type { Template } from "@/lib/api-client/types";

const template = {
  name: "pedido",
  language: "es_CO",
  components: [
    { type: "BODY", text: "Hola {{1}}" },
    {
      type: "BUTTONS",
      buttons: [
        { type: "QUICK_REPLY", text: "Gracias" },
        { type: "URL", text: "Seguir", url: "https://tienda.test/p/{{1}}" },
        { type: "URL", text: "Tienda", url: "https://tienda.test/" },
      ],
    },
  ],
} as unknown as Template;

describe("broadcast wizard draft: dynamic URL buttons", () => {
  it("holds one value per dynamic URL button and sends it as button_params", () => {
    const d = withTemplate(emptyDraft, template);
    expect(d.buttons).toEqual([{ key: "1", index: 1, label: "Seguir", url: "https://tienda.test/p/{{1}}", source: "fixed", text: "" }]);
    const t = (k: string) => k;
    expect(checkStep("params", d, t as never)).toMatchObject({ "button_params.0.value": "bc.paramRequired" });
    const filled = { ...d, buttons: [{ ...d.buttons[0], source: "customer_id" as const }] };
    expect(checkStep("params", filled, t as never)["button_params.0.value"]).toBeUndefined();
    expect(toRequest(filled).button_params).toEqual([{ index: 1, value: "{{customer_id}}" }]);
    expect(stepOfField("button_params.0.value")).toBe("params");
    expect(stepOfField("button_params")).toBe("params");
  });

  it("uses the index a listed button carries (a synced template whose phone button is not listed): Meta's", () => {
    const synced = {
      ...template,
      components: [
        { type: "BODY", text: "Hola" },
        { type: "BUTTONS", buttons: [{ type: "URL", text: "Seguir", url: "https://tienda.test/p/{{1}}", index: 1 }] },
      ],
    } as unknown as Template;
    const d = withTemplate(emptyDraft, synced);
    expect(d.buttons.map((b) => b.index)).toEqual([1]);
    expect(toRequest({ ...d, buttons: [{ ...d.buttons[0], text: "A-1" }] }).button_params).toEqual([{ index: 1, value: "A-1" }]);
  });

  it("sends no button_params for a template without dynamic buttons", () => {
    const d = withTemplate(emptyDraft, { ...template, components: [{ type: "BODY", text: "Hola" }] } as unknown as Template);
    expect(d.buttons).toEqual([]);
    expect("button_params" in toRequest(d)).toBe(false);
  });
});
