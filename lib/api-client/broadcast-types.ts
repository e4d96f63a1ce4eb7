/**
 * Shapes of the audiences API (CSV import, audience size) as agreed in BROADCAST-API.md, until
 * the audiences branch's zod schemas land (then these become z.infer of them, in ./types.ts).
 */
export type AudienceSizeResponse = { message: string; data: { size: number } };
export type ImportReport = {
  processed: number;
  created: number;
  updated: number;
  rejected: { line: number; reason: string }[];
  warnings: { line: number; reason: string }[];
};
export type ImportLine = ({ type: "progress"; processed: number } | ({ type: "done" } & ImportReport)) & { message?: string };
