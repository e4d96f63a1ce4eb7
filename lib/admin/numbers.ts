import { z } from "@/lib/http/zod-es";
import { addNumber } from "@/lib/numbers/service";
import { isValidNumber, sanitizeNumber } from "@/lib/phone";
import { uniqueViolation } from "@/db/errors";
import { AdminError } from "./errors";
import { intFlag, textFlag } from "./flags";
import { CLI, requireTeam } from "./teams";
import { recordAudit } from "@/lib/audit/service";
import { getDb } from "@/db/client";
import type { AdminCommand } from "./types";

const schema = z
  .object({
    team: intFlag("team"),
    number: textFlag("number").transform(sanitizeNumber),
    provider: z.enum(["sandbox", "cloud_api"], { error: "La opción --provider debe ser sandbox o cloud_api." }).default("sandbox"),
    "phone-number-id": textFlag("phone-number-id").optional(),
    "business-account-id": textFlag("business-account-id").optional(),
    "access-token": textFlag("access-token").optional(),
    "app-secret": textFlag("app-secret").optional(),
    "verify-token": textFlag("verify-token").optional(),
    mps: intFlag("mps").optional(),
    "display-name": z.string().optional(),
  })
  .superRefine((f, ctx) => {
    if (!isValidNumber(f.number))
      ctx.addIssue({ code: "custom", message: "La opción --number debe ser un número de teléfono válido (8 a 15 dígitos)." });
    if (f.provider === "cloud_api" && (!f["phone-number-id"] || !f["access-token"])) {
      ctx.addIssue({ code: "custom", message: "Con --provider cloud_api son obligatorias --phone-number-id y --access-token." });
    }
  });

export const numberAdd: AdminCommand = {
  summary:
    "Registra un número de empresa: --team ID --number DIGITOS [--provider sandbox|cloud_api --phone-number-id X " +
    "--business-account-id X --access-token X --app-secret X --verify-token X --mps N --display-name X] → {id, number}",
  options: Object.fromEntries(
    [
      "team",
      "number",
      "provider",
      "phone-number-id",
      "business-account-id",
      "access-token",
      "app-secret",
      "verify-token",
      "mps",
      "display-name",
    ].map((k) => [k, { type: "string" as const }]),
  ),
  run: async (flags) => {
    const f = schema.parse(flags);
    const teamId = await requireTeam(f.team);
    const credentials = {
      accessToken: f["access-token"],
      appSecret: f["app-secret"],
      verifyToken: f["verify-token"],
    };
    try {
      const row = await addNumber({
        input: {
          teamId,
          number: f.number,
          displayName: f["display-name"],
          provider: f.provider,
          phoneNumberId: f["phone-number-id"],
          businessAccountId: f["business-account-id"],
          // Credentials are encrypted by addNumber; a sandbox number has none.
          credentials: Object.values(credentials).some(Boolean) ? credentials : undefined,
          messagesPerSecond: f.mps,
        },
      });
      // Credentials by name only: the trail records that they were set, never their values.
      await recordAudit(await getDb(), {
        teamId,
        actor: CLI,
        action: "number.added",
        target: { kind: "number", id: row.id, name: row.number },
        after: {
          number: row.number,
          provider: f.provider,
          phone_number_id: f["phone-number-id"] ?? null,
          business_account_id: f["business-account-id"] ?? null,
          ...Object.fromEntries(
            Object.entries({ access_token: f["access-token"], app_secret: f["app-secret"], verify_token: f["verify-token"] })
              .filter(([, v]) => v)
              .map(([k]) => [k, "set"]),
          ),
        },
      });
      return { id: row.id, number: row.number };
    } catch (err) {
      if (uniqueViolation(err)) throw new AdminError(`El número ${f.number} (o su phone_number_id) ya está registrado.`);
      throw err;
    }
  },
};
