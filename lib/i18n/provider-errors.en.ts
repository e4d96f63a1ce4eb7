import type { providerErrorsEs } from "./provider-errors.es";

export const providerErrorsEn: Record<keyof typeof providerErrorsEs, string> = {
  "providerError.130429": "The number's sends-per-second limit was exceeded",
  "providerError.131026": "The message could not be delivered (the number is not on WhatsApp or does not accept messages)",
  "providerError.131030": "The recipient's number is not in the test allowed list",
  "providerError.131047": "More than 24 hours since the customer's last message: send a template",
  "providerError.131049": "Meta held the message back to protect the customer's experience (too much marketing)",
  "providerError.131050": "The customer stopped marketing messages",
  "providerError.131051": "Unsupported message type",
  "providerError.131056": "Too many messages to the same number in a short time",
  "providerError.132000": "The number of parameters does not match the template",
  "providerError.132001": "The template does not exist in that language or is not approved",
  "providerError.132012": "A parameter's format does not match the template",
  "providerError.133010": "The business number is not registered on WhatsApp",
  "providerError.reason": "{text} ({code}: {original})",
};
