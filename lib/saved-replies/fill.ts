/**
 * The content of a saved reply with `{{name}}`, `{{number}}` and `{{agent}}` filled in (spaces
 * inside the braces allowed). An unknown value leaves its place empty rather than showing the
 * customer a raw `{{name}}`. Pure: used by the composer, tested in tests/ui.
 */
export function fillSavedReply(content: string, values: { name?: string | null; number?: string | null; agent?: string | null }): string {
  return content.replace(/\{\{\s*(name|number|agent)\s*\}\}/g, (_m, key: "name" | "number" | "agent") => values[key] ?? "");
}
