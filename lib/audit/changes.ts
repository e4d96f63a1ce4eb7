/** One field's change as the audit trail keeps it; a secret's values are never kept. */
export type FieldChange = { before: unknown; after: unknown } | { changed: true };
export type AuditChanges = Record<string, FieldChange>;

/** Field names whose values are secrets, wherever they appear: only "changed" is recorded. */
const SECRET = /(password|secret|token|access_?key|app_?secret|hash)/i;

/**
 * The fields that differ between `before` and `after` (either may be null: a creation, a
 * deletion), compared as JSON. Secrets (by name) are recorded as `{ changed: true }`. Null when
 * nothing changed, so an update that changed nothing records no values.
 */
export function changesBetween(before: Record<string, unknown> | null, after: Record<string, unknown> | null): AuditChanges | null {
  const out: AuditChanges = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of keys) {
    const b = before?.[key] ?? null;
    const a = after?.[key] ?? null;
    if (JSON.stringify(b) === JSON.stringify(a)) continue;
    out[key] = SECRET.test(key) ? { changed: true } : { before: b, after: a };
  }
  return Object.keys(out).length ? out : null;
}
