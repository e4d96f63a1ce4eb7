/** Spanish names of a template's attributes, as an agent reads them (spread into es.ts). */
export const templatesEs = {
  "tpl.slug": "Nombre en WhatsApp: {name}",
  "tpl.category.MARKETING": "Marketing",
  "tpl.category.UTILITY": "Utilidad",
  "tpl.category.AUTHENTICATION": "Autenticación",
  "tpl.header.TEXT": "encabezado de texto",
  "tpl.header.IMAGE": "con imagen",
  "tpl.header.VIDEO": "con vídeo",
  "tpl.header.DOCUMENT": "con documento",
} as const;
