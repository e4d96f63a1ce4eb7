/** Spanish texts of the app's date field (components/ui/date-field.tsx; spread into es.ts). */
export const dateFieldEs = {
  "date.placeholder": "dd/mm/aaaa",
  "date.invalid": "No es una fecha: escríbala como dd/mm/aaaa.",
  "date.open": "Elegir la fecha en el calendario",
  "date.calendar": "Calendario",
} as const;
