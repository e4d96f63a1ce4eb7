import { csvLine } from "@/lib/http/csv";

/**
 * The "filas rechazadas" download of an import, built in the browser from the report
 * (`rejected_rows=1`): the file's own columns, then one reason column in the UI's language. Every
 * cell goes through csvCell, as every CSV export of the service does: a value starting with = + -
 * @ (or a tab / carriage return) gets a leading apostrophe, so a spreadsheet never runs it as a
 * formula; the import takes that apostrophe off again when the fixed file comes back. With a BOM
 * and CRLF, as the other exports.
 */
export function rejectedRowsCsv(
  columns: string[],
  rows: { row?: string[] | null }[],
  reasonHeader: string,
  reasonOf: (index: number) => string,
): string {
  const width = Math.max(columns.length, ...rows.map((r) => r.row?.length ?? 0));
  const pad = (cells: string[]) => [...cells, ...Array<string>(width - cells.length).fill("")];
  const lines = [csvLine([...pad(columns), reasonHeader])];
  rows.forEach((r, i) => lines.push(csvLine([...pad(r.row ?? []), reasonOf(i)])));
  return `\uFEFF${lines.join("\r\n")}\r\n`;
}
