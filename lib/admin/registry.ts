import { agentCreate } from "./agents";
import { contactAdd, labelAdd } from "./contacts";
import { numberAdd } from "./numbers";
import { botAdd, campaignAdd } from "./routing";
import { seedDemoCommand } from "./seed";
import { teamCreate, teamSettings, tokenCreate, tokenRevoke } from "./teams";
import { templateAdd } from "./templates";
import { templatesSync } from "./commands/templates-sync";
import { deadLettersList } from "./commands/dead-letters-list";
import { dbStatus } from "./commands/db-status";
import type { AdminCommand } from "./types";

/** Every `npm run admin -- <command>`: add a command with one file and one line here. */
export const registry: Record<string, AdminCommand> = {
  "seed:demo": seedDemoCommand,
  "team:create": teamCreate,
  "team:settings": teamSettings,
  "token:create": tokenCreate,
  "token:revoke": tokenRevoke,
  "number:add": numberAdd,
  "template:add": templateAdd,
  "templates:sync": templatesSync,
  "label:add": labelAdd,
  "contact:add": contactAdd,
  "bot:add": botAdd,
  "campaign:add": campaignAdd,
  "agent:create": agentCreate,
  "dead-letters:list": deadLettersList,
  "db:status": dbStatus,
};
