import { getDb } from "@/db/client";
import { z } from "@/lib/http/zod-es";
import { createToken, revokeTokenById } from "@/lib/auth/tokens";
import { recordAudit } from "@/lib/audit/service";
import { setTeamSettings } from "@/lib/teams/settings-service";
import { updateTeamSettingsInput } from "@/lib/teams/settings-schemas";
import { AdminError } from "./errors";
import { intFlag, listFlag, textFlag } from "./flags";
import { SCOPES } from "@/lib/auth/permissions";
import { findTeam, insertTeam } from "./repo";
import { cliContext, type AdminCommand } from "./types";

/** What the audit trail names as the actor of the CLI's changes. */
export const CLI = { kind: "system", name: "CLI" } as const;

/** The team named by --team, or a clear error before any insert trips a foreign key. */
export async function requireTeam(id: number): Promise<number> {
  if (!(await findTeam(await getDb(), id))) throw new AdminError(`El equipo con el ID: ${id} no existe.`);
  return id;
}

export const teamCreate: AdminCommand = {
  summary: "Crea un equipo: --name N → {id, name}",
  options: { name: { type: "string" } },
  run: async (flags) => {
    const { name } = z.object({ name: textFlag("name") }).parse(flags);
    return insertTeam(await getDb(), name);
  },
};

export const tokenCreate: AdminCommand = {
  summary: `Crea un token de API (se muestra una sola vez): --team ID [--name N] [--scopes ${SCOPES.join(",")}] (por omisión, todos) → {id, token, scopes}`,
  options: { team: { type: "string" }, name: { type: "string" }, scopes: { type: "string" } },
  run: async (flags) => {
    const input = z.object({ team: intFlag("team"), name: textFlag("name").optional(), scopes: listFlag("scopes", SCOPES) }).parse(flags);
    const teamId = await requireTeam(input.team);
    const name = input.name ?? "cli";
    const created = await createToken({ input: { teamId, name, scopes: input.scopes } });
    await recordAudit(await getDb(), {
      teamId,
      actor: CLI,
      action: "token.created",
      target: { kind: "token", id: created.id, name },
      after: { name, scopes: input.scopes, token: "set" },
    });
    return { ...created, scopes: input.scopes };
  },
};

export const tokenRevoke: AdminCommand = {
  summary: "Revoca un token: --id ID → {id, revoked: true}",
  options: { id: { type: "string" } },
  run: async (flags) => {
    const { id } = z.object({ id: intFlag("id") }).parse(flags);
    const row = await revokeTokenById({ input: { id } });
    if (!row) throw new AdminError(`El token con el ID: ${id} no existe.`);
    await recordAudit(await getDb(), { teamId: row.teamId, actor: CLI, action: "token.revoked", target: { kind: "token", id: row.id } });
    return { id: row.id, revoked: true };
  },
};

export const teamSettings: AdminCommand = {
  summary:
    "Cambia la configuración de un equipo: --team ID [--default-country CO|none] [--reply-assigns on|off] [--waiting-alert-minutes N] → la configuración",
  options: {
    team: { type: "string" },
    "default-country": { type: "string" },
    "reply-assigns": { type: "string" },
    "waiting-alert-minutes": { type: "string" },
  },
  run: async (flags) => {
    const f = z
      .object({
        team: intFlag("team"),
        "default-country": z.string().optional(),
        "reply-assigns": z.enum(["on", "off"], { error: "La opción --reply-assigns debe ser on u off." }).optional(),
        "waiting-alert-minutes": z.string().optional(),
      })
      .parse(flags);
    const teamId = await requireTeam(f.team);
    const country = f["default-country"];
    const input = updateTeamSettingsInput.parse({
      default_country: country === undefined ? undefined : country.trim().toLowerCase() === "none" ? null : country,
      reply_assigns: f["reply-assigns"] === undefined ? undefined : f["reply-assigns"] === "on",
      // A number only when it reads as one: anything else reaches the API's own validation and message.
      waiting_alert_minutes:
        f["waiting-alert-minutes"] === undefined
          ? undefined
          : /^\s*-?\d+(\.\d+)?\s*$/.test(f["waiting-alert-minutes"])
            ? Number(f["waiting-alert-minutes"])
            : f["waiting-alert-minutes"],
    });
    return setTeamSettings({ ctx: cliContext(teamId), input });
  },
};
