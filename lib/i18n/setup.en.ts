import type { setupEs } from "./setup.es";

/** English strings of the first-run set-up page (spread into en.ts). */
export const setupEn: Record<keyof typeof setupEs, string> = {
  "setup.title": "Set up the service",
  "setup.subtitle": "There is no team yet. Create yours and your owner account: this is done once.",
  "setup.teamSection": "The team",
  "setup.ownerSection": "Your account (owner)",
  "setup.teamName": "Team name",
  "setup.teamNameHint": "The name of the business or the department that answers on WhatsApp.",
  "setup.country": "Default country",
  "setup.countryHint": "The send form puts its calling code before a number typed without one.",
  "setup.noCountry": "None (always type the country code)",
  "setup.name": "Your name",
  "setup.email": "Email",
  "setup.password": "Password",
  "setup.passwordHint": "At least 8 characters.",
  "setup.submit": "Create team",
  "setup.submitting": "Creating…",
  "setup.checking": "Checking…",
  "setup.done": "Team “{team}” created. You are signed in as {name}.",
  "setup.nextTitle": "Next step: a number",
  "setup.nextIntro":
    "Try the service with a sandbox number (sends are simulated, without Meta), or register your WhatsApp Business account's number now.",
  "setup.addSandbox": "Add the sandbox number",
  "setup.addingSandbox": "Adding…",
  "setup.sandboxAdded": "Sandbox number +{number} added.",
  "setup.goNumbers": "Register a Meta number",
  "setup.goInbox": "Go to the inbox",
};
