import { z } from "@/lib/http/zod-es";
import { errors, ok, jsonContent, type Operation } from "./helpers";
import { listAgentsResponse, teamAgentResponse, updateAgentBody } from "@/lib/agents/schemas";
import {
  acceptInvitationBody,
  createInvitationBody,
  createInvitationResponse,
  INVITATION_TTL_HOURS,
  invitationLookupBody,
  invitationPreviewResponse,
  listInvitationsResponse,
} from "@/lib/agents/invitation-schemas";
import { agentResponseSchema } from "@/lib/auth/session-schemas";
import { errorSchema } from "@/lib/http/list-query";

/** The team itself: its agents, their roles, invitations and deactivation (docs/roles.md, docs/features/agents.md). */
const agentPath = z.object({ agentId: z.string().meta({ description: "Id entero del agente" }) });
const invitationPath = z.object({ invitationId: z.string().meta({ description: "Id entero de la invitación" }) });
const simpleMessage = z.object({ message: z.string() });

/** 410: the link was used, revoked or is past its hours. */
const gone = {
  "410": {
    description: `Enlace ya usado, revocado o vencido (${INVITATION_TTL_HOURS} h): \`{"message": "La invitación venció…"}\``,
    content: jsonContent(errorSchema),
  },
};

export const teamPaths: Record<string, Partial<Record<"get" | "post" | "put" | "patch" | "delete", Operation>>> = {
  "/api/v1/agents": {
    get: {
      tags: ["Equipo"],
      summary: "Los agentes del equipo con su rol, su último inicio de sesión, si tienen una sesión abierta y si están desactivados",
      description: "Propietarios, administradores y supervisores; con un token, el alcance `agents_admin`.",
      responses: { ...ok(listAgentsResponse), ...errors() },
    },
  },
  "/api/v1/agents/{agentId}": {
    patch: {
      tags: ["Equipo"],
      summary: "Cambiar el rol de un agente, desactivarlo o reactivarlo",
      description:
        "Propietarios y administradores (con un token, el alcance `agents_admin`, que actúa como administrador). Solo un propietario " +
        "otorga o quita `owner`, o desactiva o reactiva a un propietario (403); el último propietario activo del equipo no puede dejar " +
        "de serlo ni ser desactivado (409); nadie se desactiva a sí mismo (403). `active: false` desactiva: en la misma transacción " +
        "cierra todas sus sesiones (su siguiente solicitud recibe 401 y sus flujos de eventos terminan en menos de 1 s) y desasigna " +
        "sus conversaciones abiertas (con `conversation.updated`); su nombre sigue en sus mensajes. Un agente desactivado no puede " +
        "iniciar sesión. `active: true` lo reactiva.",
      requestParams: { path: agentPath },
      requestBody: { content: jsonContent(updateAgentBody) },
      responses: { ...ok(teamAgentResponse), ...errors("400", "404", "409", "415", "422") },
    },
  },
  "/api/v1/agents/invitations": {
    get: {
      tags: ["Equipo"],
      summary: "Invitaciones pendientes (ni usadas ni revocadas; las vencidas, marcadas)",
      description: "Propietarios, administradores y supervisores; con un token, el alcance `agents_admin`. Nunca incluye el enlace.",
      responses: { ...ok(listInvitationsResponse), ...errors() },
    },
    post: {
      tags: ["Equipo"],
      summary: "Invitar a alguien como agente: un enlace de un solo uso",
      description:
        `Propietarios y administradores (con un token, el alcance \`agents_admin\`); solo un propietario invita a un propietario (403). ` +
        `El enlace (\`APP_URL/invite/<token>\`) vale ${INVITATION_TTL_HOURS} h y un solo uso; del token solo se guarda su SHA-256, y el ` +
        "enlace solo aparece en esta respuesta. Con SMTP_URL y MAIL_FROM se envía también por correo al invitado (`email_sent: true` " +
        "cuando el servidor de correo lo aceptó); si no, `email_sent: false`: compártalo usted. Un correo que ya " +
        "es de un agente: 409. Invitar de nuevo el mismo correo revoca el enlace anterior.",
      requestBody: { content: jsonContent(createInvitationBody) },
      responses: {
        "201": { description: "Creada", content: jsonContent(createInvitationResponse) },
        ...errors("400", "409", "415", "422"),
      },
    },
  },
  "/api/v1/agents/invitations/{invitationId}": {
    delete: {
      tags: ["Equipo"],
      summary: "Revocar una invitación pendiente: su enlace deja de servir",
      description: "Propietarios y administradores (con un token, `agents_admin`). Una invitación ya usada: 409.",
      requestParams: { path: invitationPath },
      responses: { ...ok(simpleMessage), ...errors("404", "409") },
    },
  },
  "/api/v1/auth/invitations/lookup": {
    post: {
      tags: ["Sesión"],
      summary: "Lo que muestra la página de una invitación: equipo, correo y rol",
      description:
        "Pública: el token del enlace es la credencial (en el cuerpo, no en la URL). 404 si no existe; 410 si ya se usó, se revocó o venció; 409 si el correo ya es de un agente.",
      security: [],
      requestBody: { content: jsonContent(invitationLookupBody) },
      responses: { ...ok(invitationPreviewResponse), ...errors("400", "404", "409", "415", "422"), ...gone },
    },
  },
  "/api/v1/auth/invitations/accept": {
    post: {
      tags: ["Sesión"],
      summary: "Aceptar una invitación: crea el agente con el rol invitado e inicia su sesión (cookie)",
      description:
        "Pública: el token del enlace es la credencial. Nombre (1–100 caracteres) y contraseña (8–1024). En una transacción: usa la " +
        "invitación (una sola vez: un segundo uso responde 410), crea el agente y abre su sesión, como el inicio de sesión.",
      security: [],
      requestBody: { content: jsonContent(acceptInvitationBody) },
      responses: {
        "201": { description: "Agente creado y sesión iniciada (Set-Cookie)", content: jsonContent(agentResponseSchema) },
        ...errors("400", "404", "409", "415", "422", "503"),
        ...gone,
      },
    },
  },
};
