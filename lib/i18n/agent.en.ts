import type { agentEs } from "./agent.es";

/** English texts of the agent's tools in the inbox (spread into en.ts). */
export const agentEn: Record<keyof typeof agentEs, string> = {
  "composer.overLimit": "{what}: {n} of at most {max} characters. Shorten it to send.",
  "composer.whatText": "Message",
  "composer.caption": "Caption or comment for the attachment",
  "composer.previewOf": "Preview of {name}",
  "composer.sendAttachment": "Send attachment",
  "composer.removeAttachment": "Remove attachment",
};
