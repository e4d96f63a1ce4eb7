import type { inboxClocksEs } from "./inbox-clocks.es";

/** English texts of the inbox's clocks (spread into en.ts). */
export const inboxClocksEn: Record<keyof typeof inboxClocksEs, string> = {
  "clock.underMinute": "< 1 min",
  "clock.minutes": "{m} min",
  "clock.hours": "{h} h {m} min",
  "clock.days": "{d} d {h} h",
  "clock.waiting": "Waiting for a reply for {span}",
  "clock.waitingAlert": "Waiting for a reply for {span}: longer than the team's alert ({limit} min)",
  "clock.title": "Clocks",
  "clock.firstResponse": "First response",
  "clock.firstResponsePending": "Pending",
  "clock.resolution": "Resolution",
  "clock.openFor": "Open for {span}",
  "clock.resolvedAt": "Resolved on {when}",
};
