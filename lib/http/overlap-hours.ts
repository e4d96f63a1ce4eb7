import { z } from "@/lib/http/zod-es";

/**
 * A rolled secret's overlap (an API token, a webhook endpoint's signing secret): how many hours the
 * old one keeps working beside the new, at most a week; 0 ends it at once. One rule and one error
 * text for both rolls.
 */
export const MAX_OVERLAP_HOURS = 168;
export const OVERLAP_INVALID = `El campo overlap_hours debe ser un número entero entre 0 y ${MAX_OVERLAP_HOURS}.`;

/** The `overlap_hours` field of a roll's body, with what the old secret keeps doing meanwhile. */
export const overlapHours = (description: string) =>
  z
    .number({ error: OVERLAP_INVALID })
    .int(OVERLAP_INVALID)
    .min(0, OVERLAP_INVALID)
    .max(MAX_OVERLAP_HOURS, OVERLAP_INVALID)
    .meta({ description, example: 24 });
