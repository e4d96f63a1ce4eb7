// Plain function, apart from the React provider: importable from anywhere (tests, server code).
/** `{name}` placeholders; `{{key}}` is left for literal template-parameter labels. */
export function format(text: string, vars?: Record<string, string | number>): string {
  if (!vars) return text;
  return text.replace(/\{\{(\w+)\}\}|\{(\w+)\}/g, (whole, dbl: string | undefined, single: string | undefined) =>
    dbl !== undefined ? (dbl in vars ? `{{${vars[dbl]}}}` : whole) : single! in vars ? String(vars[single!]) : whole,
  );
}
