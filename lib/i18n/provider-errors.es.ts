/**
 * WhatsApp (Meta) error codes an agent meets, in Spanish (spread into es.ts). The provider's own
 * English title and details stay beside it: they are what support at Meta will ask for.
 */
export const providerErrorsEs = {
  "providerError.130429": "Se superó el límite de envíos por segundo del número",
  "providerError.131026": "No se pudo entregar el mensaje (el número no usa WhatsApp o no acepta mensajes)",
  "providerError.131030": "El número del destinatario no está en la lista de números permitidos de prueba",
  "providerError.131047": "Pasaron más de 24 horas desde el último mensaje del cliente: envíe una plantilla",
  "providerError.131049": "Meta no entregó el mensaje para cuidar la experiencia del cliente (demasiado marketing)",
  "providerError.131050": "El cliente dejó de recibir mensajes de marketing",
  "providerError.131051": "Tipo de mensaje no admitido",
  "providerError.131056": "Demasiados mensajes al mismo número en poco tiempo",
  "providerError.132000": "El número de parámetros no coincide con la plantilla",
  "providerError.132001": "La plantilla no existe en ese idioma o no está aprobada",
  "providerError.132012": "El formato de un parámetro no coincide con la plantilla",
  "providerError.133010": "El número de la empresa no está registrado en WhatsApp",
  "providerError.reason": "{text} ({code}: {original})",
} as const;
