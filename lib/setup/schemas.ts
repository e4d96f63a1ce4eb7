import { z } from "@/lib/http/zod-es";
import { agentSchema } from "@/lib/auth/session-schemas";

/**
 * The first run without the demo (docs/features/setup.md): the shapes of /api/v1/setup, shared by
 * the route, the set-up page's form and the OpenAPI document.
 */
export const SETUP_DONE = "La configuración inicial ya está hecha: inicie sesión.";
export const SETUP_COUNTRY_UNKNOWN = "El país por defecto no es un código de país conocido.";

export const SETUP_LIMITS = { teamName: 100, name: 100, email: 320, passwordMin: 8, passwordMax: 1024 };

export const setupBody = z
  .object({
    team_name: z
      .string()
      .trim()
      .min(1, "El campo team_name es obligatorio.")
      .max(SETUP_LIMITS.teamName, `El campo team_name no puede tener más de ${SETUP_LIMITS.teamName} caracteres.`)
      .meta({ description: "El nombre del equipo (la empresa)", example: "Tienda Sol" }),
    default_country: z
      .string()
      .trim()
      .toUpperCase()
      .regex(/^[A-Z]{2}$/, "El país por defecto debe ser un código ISO 3166-1 alfa-2, como CO.")
      .nullable()
      .optional()
      .meta({
        description: "País ISO 3166-1 alfa-2 cuyo código antepone el formulario de envío a un número escrito sin él; null: ninguno",
        example: "CO",
      }),
    name: z
      .string()
      .trim()
      .min(1, "El campo name es obligatorio.")
      .max(SETUP_LIMITS.name, `El campo name no puede tener más de ${SETUP_LIMITS.name} caracteres.`)
      .meta({ description: "El nombre del propietario", example: "Ana Gómez" }),
    email: z
      .string()
      .trim()
      .toLowerCase()
      .min(1, "El campo email es obligatorio.")
      .max(SETUP_LIMITS.email, `El campo email no puede tener más de ${SETUP_LIMITS.email} caracteres.`)
      .pipe(z.email("El campo email debe ser un correo válido."))
      .meta({ description: "El correo con el que el propietario inicia sesión", example: "ana@tiendasol.co" }),
    password: z
      .string()
      .min(SETUP_LIMITS.passwordMin, `La contraseña debe tener al menos ${SETUP_LIMITS.passwordMin} caracteres.`)
      .max(SETUP_LIMITS.passwordMax, `El campo password no puede tener más de ${SETUP_LIMITS.passwordMax} caracteres.`)
      .meta({ description: "Al menos 8 caracteres; se guarda solo su hash (scrypt)", writeOnly: true }),
  })
  .meta({ id: "SetupRequest" });
export type SetupInput = z.output<typeof setupBody>;

export const setupStatusResponse = z
  .object({
    message: z.string(),
    data: z.object({ needed: z.boolean().meta({ description: "true mientras no exista ningún equipo" }) }),
  })
  .meta({ id: "SetupStatusResponse" });

export const setupResponse = z
  .object({
    message: z.string(),
    data: z.object({
      team: z.object({ id: z.number().int(), name: z.string(), default_country: z.string().nullable() }),
      agent: agentSchema,
    }),
  })
  .meta({ id: "SetupResponse" });
