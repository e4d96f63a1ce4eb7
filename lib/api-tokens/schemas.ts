import { z } from "@/lib/http/zod-es";
import { overlapHours } from "@/lib/http/overlap-hours";
// The overlap's rule and text are shared with the other roll (lib/http/overlap-hours.ts).
export { MAX_OVERLAP_HOURS, OVERLAP_INVALID } from "@/lib/http/overlap-hours";
import { SCOPES } from "@/lib/auth/permissions";

/**
 * The team's API tokens, made and rolled from the browser (docs/features/api-tokens.md): shapes
 * shared by the routes, the settings page and the OpenAPI document. The secret is in an answer
 * once, when it is made; no shape here ever carries its hash.
 */
export const TOKEN_NOT_FOUND = "Token no encontrado.";
export const TOKEN_NAME_MAX = 100;
export const SCOPE_INVALID = `El campo scopes solo admite: ${SCOPES.join(", ")}.`;
export const SCOPES_REQUIRED = "El campo scopes debe tener al menos un alcance.";
export const EXPIRES_AT_FORMAT = "El campo expires_at debe ser una fecha y hora ISO 8601 con zona horaria (2026-12-31T23:59:00Z).";
export const EXPIRES_AT_PAST = "El campo expires_at debe ser una fecha y hora futura.";
export const TOKEN_REVOKED = "El token está revocado: no se puede renovar.";
export const TOKEN_ALREADY_ROLLED = "El token ya se renovó: renueve el que lo reemplazó.";
export const TOKEN_EXPIRED = "El token venció: no se puede renovar; cree uno nuevo.";
/** A token may only hand on what it holds itself (the 403 names what it lacks). */
export const scopesNotHeld = (missing: readonly string[]) => `Un token no puede dar alcances que no tiene: ${missing.join(", ")}.`;
/** Nor a longer life than its own: a leaked short-lived token must not yield a lasting one. */
export const outlivesCaller = (at: Date) => `Un token que vence el ${at.toISOString()} no puede crear ni renovar uno que venza después.`;

export const scopeSchema = z.enum(SCOPES, { error: SCOPE_INVALID }).meta({
  id: "TokenScope",
  description: "Un alcance de token (docs/roles.md): qué operaciones permite",
});

const name = z
  .string({ error: (iss) => (iss.input === undefined ? "El campo name es obligatorio." : "El campo name debe ser una cadena de texto.") })
  .trim()
  .min(1, "El campo name es obligatorio.")
  .max(TOKEN_NAME_MAX, `El campo name no puede tener más de ${TOKEN_NAME_MAX} caracteres.`)
  .meta({ description: "Para qué es el token (solo para reconocerlo)", example: "CRM de ventas" });

const scopes = z
  .array(scopeSchema, { error: (iss) => (iss.input === undefined ? SCOPES_REQUIRED : "El campo scopes debe ser una lista.") })
  .min(1, SCOPES_REQUIRED)
  .max(SCOPES.length, SCOPE_INVALID)
  // In the order of the table (docs/roles.md), each once.
  .transform((list) => SCOPES.filter((s) => list.includes(s)))
  .meta({ description: "Al menos uno; un token solo puede dar los alcances que tiene él mismo" });

const expiresAt = z
  .string({ error: EXPIRES_AT_FORMAT })
  .refine((s) => z.iso.datetime({ offset: true }).safeParse(s).success, { message: EXPIRES_AT_FORMAT, abort: true })
  .refine((s) => Date.parse(s) > Date.now(), EXPIRES_AT_PAST)
  .nullable()
  .optional()
  .meta({ description: "Desde cuándo se rechaza (401 que lo dice); sin él, no vence", example: "2027-06-30T23:59:59Z" });

export const createTokenBody = z.object({ name, scopes, expires_at: expiresAt }).meta({ id: "CreateTokenRequest" });
export type CreateTokenInput = z.output<typeof createTokenBody>;

export const EXPIRES_ON_INVALID = "La fecha de vencimiento debe ser hoy o un día posterior.";

/** The end of a calendar day "YYYY-MM-DD" in the browser's zone: the next day's midnight. */
function endOfDay(day: string): Date {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y, m - 1, d + 1);
}

/**
 * The settings page's form (components/tokens): the same name and scopes, and an optional
 * calendar day for the expiry: the token ends when that day does, where the agent is.
 */
export const tokenFormSchema = z
  .object({
    name,
    scopes,
    expires_on: z
      .string()
      .refine((s) => s === "" || (/^\d{4}-\d{2}-\d{2}$/.test(s) && endOfDay(s).getTime() > Date.now()), EXPIRES_ON_INVALID),
  })
  .transform((v) => ({ name: v.name, scopes: v.scopes, expires_at: v.expires_on ? endOfDay(v.expires_on).toISOString() : null }));
export type TokenFormValues = z.input<typeof tokenFormSchema>;
export type TokenFormOutput = z.output<typeof tokenFormSchema>;

export const rollTokenBody = z
  .object({
    overlap_hours: overlapHours("Horas que el token anterior sigue valiendo junto al nuevo (0: se revoca ya)"),
  })
  .meta({ id: "RollTokenRequest" });
export type RollTokenInput = z.output<typeof rollTokenBody>;

export const TOKEN_STATES = ["active", "rolling", "expired", "replaced", "revoked"] as const;
export type TokenState = (typeof TOKEN_STATES)[number];

export const apiTokenSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    prefix: z.string().meta({ description: "Los primeros 8 caracteres del token (`wam_…`), para reconocerlo" }),
    scopes: z.array(scopeSchema),
    created_at: z.string().meta({ description: "ISO 8601" }),
    created_by: z
      .object({ kind: z.enum(["agent", "token", "system"]), id: z.number().int().nullable(), name: z.string() })
      .meta({ description: "Quién lo creó: un agente, otro token del equipo o el sistema (`CLI`: npm run admin)" }),
    last_used_at: z.string().nullable().meta({ description: "Último uso, al minuto; null si nunca se usó" }),
    expires_at: z.string().nullable().meta({ description: "Vencimiento; null: no vence" }),
    revoked_at: z.string().nullable(),
    replaced_by: z.number().int().nullable().meta({ description: "El token que lo reemplazó al renovarlo" }),
    overlap_ends_at: z.string().nullable().meta({ description: "De un token renovado: hasta cuándo sigue valiendo" }),
    state: z.enum(TOKEN_STATES).meta({
      description:
        "active; rolling (renovado, vale hasta overlap_ends_at); expired; replaced (renovado, su periodo de transición terminó); revoked",
    }),
  })
  .meta({ id: "ApiToken" });
export type ApiTokenDto = z.infer<typeof apiTokenSchema>;

export const createdTokenSchema = z
  .object({
    secret: z.string().meta({ description: "El token: solo aparece en esta respuesta; se guarda únicamente su hash" }),
    token: apiTokenSchema,
  })
  .meta({ id: "CreatedToken" });
export type CreatedTokenDto = z.infer<typeof createdTokenSchema>;

export const listTokensResponse = z.object({ message: z.string(), data: z.array(apiTokenSchema) }).meta({ id: "ListTokensResponse" });
export const apiTokenResponse = z.object({ message: z.string(), data: apiTokenSchema }).meta({ id: "ApiTokenResponse" });
export const createdTokenResponse = z.object({ message: z.string(), data: createdTokenSchema }).meta({ id: "CreatedTokenResponse" });
export const rolledTokenResponse = z
  .object({
    message: z.string(),
    data: createdTokenSchema.extend({ previous: apiTokenSchema }).meta({ id: "RolledToken" }),
  })
  .meta({ id: "RolledTokenResponse" });
