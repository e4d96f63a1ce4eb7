import { z } from "zod";

/**
 * Spanish default messages for every zod issue, in the wording of the contract's own messages
 * ("El campo per_page …"). Schemas that have an exact contract text set it themselves; this map
 * only fills in the rest. Imported for its side effect by lib/http/parse.ts and the forms.
 */
function fieldOf(path: readonly PropertyKey[] | undefined): string {
  const parts = (path ?? []).filter((p) => typeof p === "string" || typeof p === "number");
  return parts.length ? parts.map(String).join(".") : "valor";
}

const typeNames: Record<string, string> = {
  string: "una cadena de texto",
  number: "un número",
  int: "un número entero",
  boolean: "verdadero o falso",
  array: "una lista",
  object: "un objeto",
};

z.config({
  customError: (iss) => {
    const field = fieldOf(iss.path);
    switch (iss.code) {
      case "invalid_type":
        if (iss.input === undefined) return `El campo ${field} es obligatorio.`;
        if (iss.input === null) return `El campo ${field} no puede ser nulo.`;
        return `El campo ${field} debe ser ${typeNames[iss.expected] ?? iss.expected}.`;
      case "too_small":
        if (iss.origin === "string") return `El campo ${field} debe tener al menos ${iss.minimum} caracteres.`;
        if (iss.origin === "array") return `El campo ${field} debe tener al menos ${iss.minimum} elementos.`;
        return `El campo ${field} debe ser al menos ${iss.minimum}.`;
      case "too_big":
        if (iss.origin === "string") return `El campo ${field} no puede tener más de ${iss.maximum} caracteres.`;
        if (iss.origin === "array") return `El campo ${field} no puede tener más de ${iss.maximum} elementos.`;
        return `El campo ${field} no puede ser mayor a ${iss.maximum}.`;
      case "invalid_value":
        return `El campo ${field} debe ser uno de: ${iss.values.map(String).join(", ")}.`;
      case "invalid_format":
        return `El formato del campo ${field} no es válido.`;
      case "unrecognized_keys":
        return `Campos no permitidos: ${iss.keys.join(", ")}.`;
      default:
        return `El campo ${field} no es válido.`;
    }
  },
});

// In the browser (the forms), zod must not probe `new Function` for its JIT: the pages' CSP has no
// 'unsafe-eval', and the probe alone reports a violation. The server keeps the faster JIT.
if (typeof window !== "undefined") z.config({ jitless: true });

export { z };
