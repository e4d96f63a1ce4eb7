import "server-only";
import { getDb, type DbOrTx } from "@/db/client";
import type { MarketingOptOutReason } from "@/db/schema";
import { config } from "@/lib/config";
import { markOptedOut, optedOutNumbers } from "./opt-out-repo";

export { MARKETING_OPTED_OUT, MARKETING_OPTED_OUT_AT_SEND } from "./schemas";

/** Meta's "this user has stopped marketing messages" (the customer tapped "Stop promotions"). */
export const META_MARKETING_STOPPED = 131050;

const fold = (s: string) =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toUpperCase();
// "¡Salir!" and "stop." are the word too: punctuation and spaces around it are not part of it.
const trimmed = (s: string) => s.replace(/^[\s¡!¿?.,;:"'()]+|[\s¡!¿?.,;:"'()]+$/g, "");

/**
 * Whether a customer's message is an opt-out word: the whole message (trimmed of spaces and
 * punctuation), case- and accent-insensitive. "salir" opts out; "quiero salir de la lista" does not
 * (an agent reads it and decides), so an ordinary sentence never opts anyone out by accident.
 */
export function isOptOutText(text: string, words: string[] = config.optOutWords): boolean {
  const t = fold(trimmed(text));
  return !!t && words.some((w) => fold(trimmed(w)) === t);
}

/** The text a customer typed or tapped, for the types that carry one (text, a template button, a quick reply). */
export function customerText(type: string | null, payload: unknown): string | null {
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) return null;
  const p = payload as Record<string, unknown>;
  const pick = (v: unknown) => (typeof v === "string" ? v : null);
  if (type === "text") return pick(p.text);
  if (type === "button") return pick(p.text) ?? pick(p.payload);
  if (type === "button_reply") return pick(p.title);
  return null;
}

/** An inbound message that is an opt-out word marks its contact (first time and reason kept). */
export async function optOutOnInbound(tx: DbOrTx, teamId: number, contactId: number, type: string | null, payload: unknown, at: Date) {
  const text = customerText(type, payload);
  if (text === null || !isOptOutText(text)) return false;
  return Boolean(await markOptedOut(tx, { teamId, contactId, reason: "keyword", at }));
}

/** A send that Meta refused with 131050 marks its contact: later MARKETING sends are refused here. */
export async function optOutOnProviderError(tx: DbOrTx, teamId: number, contactId: number, error: { code?: unknown } | null | undefined) {
  if (!error || Number(error.code) !== META_MARKETING_STOPPED) return false;
  return Boolean(await markOptedOut(tx, { teamId, contactId, reason: "provider" }));
}

export const isMarketing = (category: string) => category.toUpperCase() === "MARKETING";

/** Of `numbers`, those of opted-out contacts, when the template is MARKETING (else none). */
export async function optedOutAmong(teamId: number, category: string, numbers: string[]): Promise<Set<string>> {
  return isMarketing(category) ? optedOutNumbers(await getDb(), { teamId, numbers }) : new Set();
}

export type { MarketingOptOutReason };
