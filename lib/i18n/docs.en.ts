import type { docsEs } from "./docs.es";

/** English texts of /docs (spread into en.ts). */
export const docsEn: Record<keyof typeof docsEs, string> = {
  "nav.signIn": "Sign in",
  "docs.version": "Version {version}",
  "docs.endpoints": "API routes",
  // The OpenAPI document is the contract's, written in Spanish: said once, not translated.
  "docs.contentLanguage": "The descriptions and error texts of the API are in Spanish, as the API answers them.",
  "docs.params": "Parameters",
  "docs.param.name": "Name",
  "docs.param.in": "In",
  "docs.param.type": "Type",
  "docs.param.description": "Description",
  "docs.required": "required",
  "docs.body": "Body ({types})",
  "docs.responses": "Responses",
  "docs.variant": "variant {n}",
  "docs.min": "min {n}",
  "docs.max": "max {n}",
  "docs.minLength": "≥ {n} chars",
  "docs.maxLength": "≤ {n} chars",
  "docs.default": "default {value}",
};
