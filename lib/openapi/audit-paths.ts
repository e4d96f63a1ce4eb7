import { z } from "@/lib/http/zod-es";
import { errors, jsonContent, type Operation } from "./helpers";
import { auditListResponse, auditQuery } from "@/lib/audit/schemas";

/** The audit trail (lib/audit), spread into the document's paths. */
export const auditPaths: Record<string, Partial<Record<"get", Operation>>> = {
  "/api/v1/audit": {
    get: {
      tags: ["Auditoría"],
      summary: "Registro de auditoría del equipo (lo más nuevo primero)",
      description:
        "Cada cambio de la configuración (etiquetas, respuestas guardadas, bots, campañas, tokens, números) y cada inicio de " +
        "sesión, correcto o fallido, con quién actuó (agente, token o el sistema), cuándo, desde qué dirección, sobre qué, y " +
        "los campos que cambiaron antes y después; de un secreto solo que cambió. Los envíos no se auditan. Se conserva " +
        "AUDIT_RETENTION_DAYS días (365). Con `format=csv` o `Accept: text/csv`, el registro filtrado entero en CSV.",
      requestParams: { query: auditQuery },
      responses: {
        "200": {
          description: "OK",
          content: { ...jsonContent(auditListResponse), "text/csv": { schema: z.string() } },
        },
        ...errors("422"),
      },
    },
  },
};
