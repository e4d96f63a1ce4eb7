import { z } from "@/lib/http/zod-es";
import { sanitizeNumber } from "@/lib/phone";
import { syncTemplates } from "@/lib/channels/template-sync";
import { graphSettings } from "@/lib/delivery/config";
import { textFlag } from "../flags";
import type { AdminCommand } from "../types";

export const templatesSync: AdminCommand = {
  summary: "Importa las plantillas APPROVED de la cuenta de WhatsApp Business (Cloud API) del número: --number DIGITOS",
  options: { number: { type: "string" } },
  run: async (flags) => {
    const f = z.object({ number: textFlag("number").transform(sanitizeNumber) }).parse(flags);
    return syncTemplates({ input: f, graph: graphSettings() });
  },
};
