import type { Label } from "@/lib/api-client/types";
import type { Translate } from "@/lib/i18n";
import { CONTACT_LABEL_CAP, CONTACT_NOT_FOUND, LABEL_NOT_ASSIGNED, LABEL_NOT_FOUND } from "@/lib/contacts/schemas";

/** What the label editor's one status line says. */
export type EditorStatus =
  { kind: "added"; label: Label } | { kind: "removed"; label: Label } | { kind: "cap" } | { kind: "error"; text: string };

/** How long a removal can be undone (the offer stays while the pointer or focus is on it). */
export const UNDO_MS = 8000;

/**
 * The server's exact Spanish texts of the label routes, said in the UI's language; any other
 * answer (a network failure, a rate limit) is shown as it came.
 */
export function labelErrorText(message: string, t: Translate): string {
  switch (message) {
    case CONTACT_LABEL_CAP:
      return t("contacts.errCap");
    case LABEL_NOT_FOUND:
      return t("contacts.errLabelNotFound");
    case LABEL_NOT_ASSIGNED:
      return t("contacts.errNotAssigned");
    case CONTACT_NOT_FOUND:
      return t("contacts.errContactNotFound");
    default:
      return message;
  }
}
