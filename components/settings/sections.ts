import type { Permission } from "@/lib/auth/permissions";
import type { MessageKey } from "@/lib/i18n";

/**
 * The sections of /settings, in the order of its side navigation. Each is a page under
 * app/(dashboard)/settings/<slug>/ and is listed only to a role granted `need` (the server refuses
 * the rest anyway: docs/roles.md). Add a section here when its page lands.
 */
export const SETTINGS_SECTIONS: { slug: string; key: MessageKey; need: Permission }[] = [
  { slug: "agents", key: "settings.agents", need: "agents:read" },
  { slug: "numbers", key: "settings.numbers", need: "numbers:admin" },
  { slug: "tokens", key: "settings.tokens", need: "tokens:read" },
  { slug: "routing", key: "settings.routing", need: "routing:admin" },
  { slug: "webhooks", key: "settings.webhooks", need: "webhooks:read" },
  { slug: "team", key: "settings.team", need: "team:write" },
];
