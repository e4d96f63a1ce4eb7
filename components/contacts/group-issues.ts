/**
 * Identical warnings of an import as one row: the reason once, with its lines written as ranges
 * ("2–22, 25"). 21 rows naming the same missing label read as one line, not 21.
 */
export function groupIssues(rows: { line: number; reason: string }[]): { lines: string; count: number; reason: string }[] {
  const byReason = new Map<string, number[]>();
  for (const r of rows) {
    const list = byReason.get(r.reason);
    if (list) list.push(r.line);
    else byReason.set(r.reason, [r.line]);
  }
  return [...byReason].map(([reason, lines]) => ({ reason, count: lines.length, lines: ranges(lines) }));
}

function ranges(lines: number[]): string {
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const start = sorted[i];
    while (i + 1 < sorted.length && sorted[i + 1] === sorted[i] + 1) i++;
    out.push(start === sorted[i] ? String(start) : `${start}–${sorted[i]}`);
  }
  return out.join(", ");
}
