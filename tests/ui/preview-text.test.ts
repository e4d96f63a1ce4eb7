import { describe, expect, it } from "vitest";
import { previewText } from "@/components/inbox/preview-text";
import { messagePreview } from "@/lib/conversations/preview";
import { en } from "@/lib/i18n/en";
import { es } from "@/lib/i18n/es";
import type { MessageKey } from "@/lib/i18n";

const inEnglish = (k: MessageKey) => en[k];
const inSpanish = (k: MessageKey) => es[k];

describe("the list's preview in the agent's language", () => {
  it("puts the fixed words of a media preview in English and keeps the caption as written", () => {
    const p = messagePreview("image", { caption: "Foto del recibo" });
    expect(p).toBe("📷 Imagen Foto del recibo");
    expect(previewText(p, inEnglish)).toBe("Image Foto del recibo");
    expect(previewText(p, inSpanish)).toBe("Imagen Foto del recibo");
    expect(previewText(messagePreview("document", { filename: "factura.pdf" }), inEnglish)).toBe("Document factura.pdf");
    expect(previewText(messagePreview("reaction", { emoji: "👍" }), inEnglish)).toBe("Reaction 👍");
    expect(previewText(messagePreview("unsupported", {}), inEnglish)).toBe("Unsupported message");
    expect(previewText(messagePreview("call_permission_reply", { response: "accept" }), inEnglish)).toBe("Calls allowed");
  });

  it("leaves a customer's own text alone, even one that starts like a fixed word", () => {
    expect(previewText(messagePreview("text", { text: "Imagenes de la tienda" }), inEnglish)).toBe("Imagenes de la tienda");
    expect(previewText(messagePreview("text", { text: "Hola" }), inEnglish)).toBe("Hola");
    expect(previewText(messagePreview("location", { name: "Tienda" }), inEnglish)).toBe("Tienda");
  });
});
