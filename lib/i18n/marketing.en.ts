import type { marketingEs } from "./marketing.es";

export const marketingEn: Record<keyof typeof marketingEs, string> = {
  "optOut.title": "Marketing",
  "optOut.subscribed": "Receives marketing templates.",
  "optOut.optedOut": "Opted out of marketing since {when}",
  "optOut.reason.keyword": "wrote an opt-out word (SALIR, STOP, BAJA…)",
  "optOut.reason.provider": "WhatsApp refused a send: the customer stopped promotions (error 131050)",
  "optOut.reason.agent": "an agent opted them out",
  "optOut.reason.import": "imported as opted out from a CSV",
  "optOut.set": "Opt out of marketing",
  "optOut.clear": "Send marketing again",
  "optOut.clearConfirm": "Sure? Only if the customer asked to receive promotions again.",
  "optOut.note": "No MARKETING templates; UTILITY ones and replies still go.",
  "optOut.badge": "No marketing",
  "optOut.audienceLeftOut": "{n} opted out of marketing: a MARKETING template will not reach them (counted as rejected).",
  "contacts.export": "Export CSV",
  "inbox.customerId": "Customer ID",
};
