/**
 * A CSV cell: quoted when needed, and a value a spreadsheet would read as a formula (starting with
 * = + - @, a tab or a carriage return) is prefixed with an apostrophe (OWASP "CSV injection").
 */
export function csvCell(value: string | number | boolean | null): string {
  let s = value === null ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n;]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvLine = (cells: (string | number | boolean | null)[]) => cells.map(csvCell).join(",");

/** The headers of a CSV download (a BOM is written by the stream so spreadsheets read UTF-8). */
export function csvHeaders(filename: string): HeadersInit {
  return {
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": `attachment; filename="${filename}"`,
    "cache-control": "no-store",
  };
}
