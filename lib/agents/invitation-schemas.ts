import { z } from "@/lib/http/zod-es";
import { newPasswordSchema } from "@/lib/auth/session-schemas";
import { roleSchema } from "./schemas";

/**
 * Invitations to join the team as an agent (docs/features/agents.md): shapes shared by the routes,
 * the settings page, the accept page and the OpenAPI document. Client-safe.
 */
export const INVITATION_TTL_HOURS = 72;

export const INVITE_OWNER_ONLY = "Solo un propietario puede invitar a otro propietario.";
export const INVITATION_NOT_FOUND = "Invitación no encontrada.";
export const INVITATION_ALREADY_USED = "Esta invitación ya se usó: no se puede revocar. Para quitar el acceso, desactive al agente.";
export const INVITATION_BUSY = "Se está creando otra invitación para este correo en este momento. Intente de nuevo.";
export const inviteEmailTaken = (email: string) => `Ya existe un agente con el correo ${email}: no hace falta invitarlo.`;

/** The accept page's answers: the link is unknown, used, revoked or past its 72 hours. */
export const INVITE_LINK_UNKNOWN = "La invitación no existe: revise que el enlace esté completo.";
export const INVITE_LINK_USED =
  "Esta invitación ya se usó: cada enlace sirve una sola vez. Si la cuenta es suya, inicie sesión con su correo y contraseña.";
export const INVITE_LINK_REVOKED = "Esta invitación fue revocada. Pida otra a un administrador del equipo.";
export const INVITE_LINK_EXPIRED = `La invitación venció: cada enlace vale ${INVITATION_TTL_HOURS} horas. Pida otra a un administrador del equipo.`;
export const acceptEmailTaken = (email: string) => `Ya existe un agente con el correo ${email}: inicie sesión con él.`;

export const EMAIL_REQUIRED = "El campo email es obligatorio.";
export const EMAIL_INVALID = "El campo email debe ser un correo válido.";
export const NAME_REQUIRED = "El campo name es obligatorio.";
export const NAME_TOO_LONG = "El campo name admite como máximo 100 caracteres.";
export const TOKEN_REQUIRED = "El campo token es obligatorio.";

const emailShape = z.email();

export const createInvitationBody = z
  .object({
    email: z
      .string({ error: EMAIL_REQUIRED })
      .trim()
      .toLowerCase()
      .min(1, EMAIL_REQUIRED)
      .max(320, EMAIL_INVALID)
      .refine((v) => emailShape.safeParse(v).success, EMAIL_INVALID)
      .meta({ description: "Correo de la persona invitada (con él iniciará sesión)" }),
    role: roleSchema,
  })
  .meta({ id: "CreateInvitationRequest" });
export type CreateInvitationInput = z.output<typeof createInvitationBody>;

export const invitationSchema = z
  .object({
    id: z.number().int(),
    email: z.string(),
    role: roleSchema,
    invited_by: z
      .object({ kind: z.enum(["agent", "token", "system"]), id: z.number().int().nullable(), name: z.string() })
      .meta({ description: "Quién invitó: un agente, un token de API (por su número) o el sistema" }),
    created_at: z.string(),
    expires_at: z.string().meta({ description: `Vence ${INVITATION_TTL_HOURS} h después de creada (ISO 8601)` }),
    expired: z.boolean().meta({ description: "Ya venció: el enlace no sirve; revóquela o invite de nuevo" }),
  })
  .meta({ id: "AgentInvitation" });
export type InvitationDto = z.infer<typeof invitationSchema>;

export const createdInvitationSchema = invitationSchema
  .extend({
    link: z.string().meta({ description: "El enlace de un solo uso (`APP_URL/invite/<token>`). Solo se muestra en esta respuesta." }),
    email_sent: z.boolean().meta({
      description:
        "Si el servidor de correo (SMTP_URL, MAIL_FROM) aceptó la invitación para el correo invitado. Sin correo configurado, o si el servidor la rechazó, es false: comparta el enlace usted mismo (docs/operations.md)",
    }),
  })
  .meta({ id: "CreatedAgentInvitation" });
export type CreatedInvitationDto = z.infer<typeof createdInvitationSchema>;

export const createInvitationResponse = z
  .object({ message: z.string(), data: createdInvitationSchema })
  .meta({ id: "CreateInvitationResponse" });
export const listInvitationsResponse = z
  .object({ message: z.string(), data: z.array(invitationSchema) })
  .meta({ id: "ListInvitationsResponse" });

/** The link's token, as the accept page reads it from its path. */
const tokenField = z.string({ error: TOKEN_REQUIRED }).trim().min(1, TOKEN_REQUIRED).max(200, INVITE_LINK_UNKNOWN);

export const invitationLookupBody = z.object({ token: tokenField }).meta({ id: "InvitationLookupRequest" });
export type InvitationLookupInput = z.output<typeof invitationLookupBody>;

export const invitationPreviewSchema = z
  .object({ team_name: z.string(), email: z.string(), role: roleSchema, expires_at: z.string() })
  .meta({ id: "InvitationPreview" });
export type InvitationPreviewDto = z.infer<typeof invitationPreviewSchema>;
export const invitationPreviewResponse = z
  .object({ message: z.string(), data: invitationPreviewSchema })
  .meta({ id: "InvitationPreviewResponse" });

export const acceptInvitationBody = z
  .object({
    token: tokenField,
    name: z.string({ error: NAME_REQUIRED }).trim().min(1, NAME_REQUIRED).max(100, NAME_TOO_LONG),
    password: newPasswordSchema,
  })
  .meta({ id: "AcceptInvitationRequest" });
export type AcceptInvitationInput = z.output<typeof acceptInvitationBody>;
