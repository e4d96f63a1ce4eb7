/** Spanish texts of the agent's tools in the inbox: composer, saved replies, notes, shortcuts (spread into es.ts). */
export const agentEs = {
  "composer.overLimit": "{what}: {n} de {max} caracteres como máximo. Acórtelo para poder enviar.",
  "composer.whatText": "Mensaje",
  "composer.caption": "Pie de foto o comentario del adjunto",
  "composer.previewOf": "Vista previa de {name}",
  "composer.sendAttachment": "Enviar adjunto",
  "composer.removeAttachment": "Quitar adjunto",
} as const;
