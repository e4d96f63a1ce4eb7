import type { MessageKey } from "./es";
import type { Translate } from "./index";

/**
 * A provider error as the agent reads it: the known WhatsApp codes in the UI's language, with the
 * code and Meta's own words after it; an unknown code keeps Meta's text as it is.
 */
export function providerErrorText(t: Translate, code: number | null | undefined, original: string): string {
  const key = `providerError.${code}` as MessageKey;
  const text = code != null ? t(key) : key;
  if (text === key) return original;
  return original ? t("providerError.reason", { text, code: code!, original }) : text;
}
