import { z } from "@/lib/http/zod-es";
import { sanitizeNumber } from "@/lib/phone";
import { getDb } from "@/db/client";
import { findNumberByDigits } from "@/lib/channels/repo";
import { graphSettings } from "@/lib/delivery/config";
import { syncNumberTemplates } from "@/lib/templates/sync-service";
import { AdminError } from "../errors";
import { textFlag } from "../flags";
import type { AdminCommand } from "../types";

/**
 * The API's sync (POST /api/v1/message_templates/sync) for one number's business account. It
 * prints what it printed before (`imported`: every template Meta listed and we now keep;
 * `skipped`: those set aside, with their reason) and the API's counts beside them (`account`).
 */
export const templatesSync: AdminCommand = {
  summary:
    "Sincroniza las plantillas (todos los estados) de la cuenta de WhatsApp Business (Cloud API) del número; las que Meta ya no lista quedan DELETED: --number DIGITOS",
  options: { number: { type: "string" } },
  run: async (flags) => {
    const f = z.object({ number: textFlag("number").transform(sanitizeNumber) }).parse(flags);
    const row = await findNumberByDigits(await getDb(), f.number);
    if (!row) throw new AdminError("El número de WhatsApp no está registrado.");
    if (row.provider !== "cloud_api" || !row.businessAccountId) {
      throw new AdminError("El número no es de Cloud API o no tiene business_account_id.");
    }
    const { result, imported, setAside } = await syncNumberTemplates({ number: row, graph: graphSettings() });
    if (result.outcome === "failed") throw new AdminError(result.error?.message ?? "No se pudo leer la lista de plantillas de Meta.");
    return { number: row.number, team_id: row.teamId, imported, skipped: setAside, account: result };
  },
};
