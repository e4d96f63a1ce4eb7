import type { settingsEs } from "./settings.es";

/** English strings of the settings' frame (spread into en.ts). */
export const settingsEn: Record<keyof typeof settingsEs, string> = {
  "nav.settings": "Settings",
  "settings.title": "Settings",
  "settings.sections": "Settings sections",
  "settings.none": "Your role has no settings to change.",
  "settings.team": "Team",
  "team.title": "Team settings",
  "team.intro": "What every agent's screens in the team follow.",
  "team.country": "Default country",
  "team.countryHint": "A number typed without its country code in the dashboard is sent with this country's. With none, it is refused.",
  "team.countryNone": "None (numbers must carry their code)",
  "team.replyAssigns": "Replying assigns the conversation",
  "team.replyAssignsHint": "Whoever replies to an unassigned conversation from the inbox gets it assigned.",
  "team.waitingAlert": "Waiting alert (minutes)",
  "team.waitingAlertHint": "In the inbox, an unanswered customer's wait is shown in the alert colour after this many minutes (1 to 1440).",
  "team.save": "Save",
  "team.saved": "Settings saved.",
};
