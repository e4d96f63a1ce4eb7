import type { agentEs } from "./agent.es";

/** English texts of the agent's tools in the inbox (spread into en.ts). */
export const agentEn: Record<keyof typeof agentEs, string> = {
  "composer.overLimit": "{what}: {n} of at most {max} characters. Shorten it to send.",
  "composer.whatText": "Message",
  "composer.caption": "Caption or comment for the attachment",
  "composer.previewOf": "Preview of {name}",
  "composer.sendAttachment": "Send attachment",
  "composer.removeAttachment": "Remove attachment",
  "composer.placeholder": "Type a message (/ for saved replies)",
  "nav.savedReplies": "Replies",
  "saved.title": "Saved replies",
  "saved.intro":
    "Team texts for quick answers: in the inbox, type “/” and the shortcut in the reply box. {{name}}, {{number}} and {{agent}} are filled with the customer's name and number and your name.",
  "saved.new": "New saved reply",
  "saved.create": "Create reply",
  "saved.shortcut": "Shortcut",
  "saved.titleField": "Title",
  "saved.content": "Text",
  "saved.variablesHelp": "Variables: {{name}} (customer's name), {{number}} (their number), {{agent}} (who answers).",
  "saved.search": "Search saved replies",
  "saved.empty": "No saved replies yet. Create the first with the form.",
  "saved.noMatch": "No saved reply matches the search.",
  "saved.confirmDelete": "Delete the saved reply /{shortcut}?",
  "saved.pickerHelp": "↑ ↓ to choose, Enter to insert, Esc to close",
  "saved.pickerNone": "No saved reply matches.",
  "saved.pickerCount": "{n} saved replies",
};
