import type { templatesEs } from "./templates.es";

/** English names of a template's attributes (spread into en.ts). */
export const templatesEn: Record<keyof typeof templatesEs, string> = {
  "tpl.slug": "Name in WhatsApp: {name}",
  "tpl.category.MARKETING": "Marketing",
  "tpl.category.UTILITY": "Utility",
  "tpl.category.AUTHENTICATION": "Authentication",
  "tpl.header.TEXT": "text header",
  "tpl.header.IMAGE": "with image",
  "tpl.header.VIDEO": "with video",
  "tpl.header.DOCUMENT": "with document",
};
