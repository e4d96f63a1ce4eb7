import { en } from "./en";
import { es } from "./es";
import type { MessageKey } from "./es";

/**
 * A message status as the UI names it ("READED" → "Leído" / "Read"), for exports read by people:
 * the same catalogue as the dashboard, so a CSV and the screen never disagree. Unknown codes stay as they are.
 */
export function statusLabeler(lang: "es" | "en"): (status: string) => string {
  const catalogue: Record<string, string> = lang === "en" ? en : es;
  return (status) => catalogue[`status.${status}` satisfies string as MessageKey] ?? status;
}
