import { z } from "@/lib/http/zod-es";

/** zod pieces for CLI flags, with messages that name the flag as typed (`--team`). */
export const requiredFlag = (name: string) => `La opción --${name} es obligatoria.`;

export function textFlag(name: string) {
  return z
    .string({ error: requiredFlag(name) })
    .trim()
    .min(1, `La opción --${name} no puede estar vacía.`);
}

export function intFlag(name: string) {
  return z
    .string({ error: requiredFlag(name) })
    .regex(/^\s*[1-9]\d{0,8}\s*$/, `La opción --${name} debe ser un número entero positivo.`)
    .transform((s) => Number(s.trim()));
}

export function hexFlag(name: string, fallback: string) {
  return z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, `La opción --${name} debe ser un color #rrggbb.`)
    .optional()
    .transform((v) => v ?? fallback);
}

/** A comma-separated list of values out of `allowed` (`--scopes send,history`); absent: every one. */
export function listFlag<T extends string>(name: string, allowed: readonly T[]) {
  return z
    .string()
    .optional()
    .transform((v, ctx): T[] => {
      if (v === undefined) return [...allowed];
      const items = [
        ...new Set(
          v
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
        ),
      ];
      const unknown = items.filter((s) => !(allowed as readonly string[]).includes(s));
      if (!items.length || unknown.length) {
        ctx.addIssue({ code: "custom", message: `La opción --${name} admite una lista separada por comas de: ${allowed.join(", ")}.` });
        return z.NEVER;
      }
      return items as T[];
    });
}
