import type { TemplateComponent } from "@/lib/templates/schemas";
import { arr, obj, str } from "./safe-url";

/** Pure helpers of the payload renderers (kept apart from the components so tests can run them). */

/** At most a few characters of an emoji: a reaction is one emoji, whatever the payload holds. */
export function emojiOf(value: unknown): string {
  return typeof value === "string" ? Array.from(value.trim()).slice(0, 8).join("") : "";
}

/** `screen_0_Nombre_completo_0` → "Nombre completo", as the Flow's author named the field. */
export function flowLabel(key: string): string {
  const text =
    key
      .replace(/^screen_\d+_/i, "")
      .replace(/_\d+$/, "")
      .replace(/_/g, " ")
      .trim() || key;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Flow answers of choices arrive as `<index>_<Title_with_underscores>`: shown as the title. */
export function flowValue(value: unknown): string {
  if (Array.isArray(value)) return value.map(flowValue).filter(Boolean).join(", ");
  if (value && typeof value === "object") {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${flowLabel(k)}: ${flowValue(v)}`)
      .join("; ");
  }
  const text = str(value);
  const choice = /^\d+_(\D.*)$/.exec(text);
  return choice ? choice[1].replace(/_/g, " ") : text;
}

/** The answers of `response_json` (a JSON string, or already an object), without the flow token. */
export function flowAnswers(responseJson: unknown): [string, string][] {
  let data: unknown = responseJson;
  if (typeof responseJson === "string") {
    try {
      data = JSON.parse(responseJson);
    } catch {
      return responseJson.trim() ? [["", responseJson]] : [];
    }
  }
  return Object.entries(obj(data))
    .filter(([k]) => k !== "flow_token")
    .map(([k, v]) => [flowLabel(k), flowValue(v)] as [string, string])
    .filter(([, v]) => v !== "");
}

/**
 * A document header's file name as the customer sees it. Stored uploads are named by a random
 * id (`/api/v1/media/uploads/3/5f0c…-….pdf`), which means nothing to a person: those are named
 * after the template instead (`factura_mensual.pdf`). A URL with a real file name keeps it.
 */
export function templateMediaName(templateName: string, components: TemplateComponent[]): string | null {
  const header = components.find((c) => c.type === "HEADER");
  if (!header || header.format !== "DOCUMENT") return null;
  const handle = str(arr(obj(header.example).header_handle)[0]);
  const last = handle.split(/[?#]/)[0].split("/").pop() ?? "";
  const dot = last.lastIndexOf(".");
  const stem = dot > 0 ? last.slice(0, dot) : last;
  const ext =
    dot > 0
      ? last
          .slice(dot + 1)
          .replace(/[^A-Za-z0-9]/g, "")
          .slice(0, 5)
          .toLowerCase()
      : "";
  const opaque = !stem || /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i.test(stem) || /^[0-9a-f]{24,}$/i.test(stem);
  if (!opaque) return null;
  const base = templateName.trim() || "documento";
  return `${base}.${ext || "pdf"}`;
}
