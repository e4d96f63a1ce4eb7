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
  "providerError.131000": "Algo falló en WhatsApp al enviar el mensaje",
  "providerError.131005": "WhatsApp negó el acceso (revise los permisos del token)",
  "providerError.131008": "Falta un parámetro obligatorio",
  "providerError.131009": "Un parámetro tiene un valor no válido",
  "providerError.131016": "El servicio de WhatsApp no está disponible por ahora",
  "providerError.131021": "El destinatario no puede ser el mismo número que envía",
  "providerError.131031": "La cuenta de la empresa está bloqueada",
  "providerError.131042": "Hay un problema con el método de pago de la cuenta",
  "providerError.131052": "No se pudo descargar el archivo que envió el cliente",
  "providerError.131053": "No se pudo subir el archivo (WhatsApp no pudo descargarlo de la URL)",
  "providerError.131057": "La cuenta de la empresa está en mantenimiento",
  "providerError.132015": "La plantilla está en pausa por su baja calidad",
  "providerError.132016": "La plantilla está desactivada",
  "providerError.368": "La cuenta está bloqueada temporalmente por incumplir las políticas",
  "providerError.reason": "{text} ({code}: {original})",
} as const;
