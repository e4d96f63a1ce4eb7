import type { dateFieldEs } from "./date-field.es";

/** English texts of the app's date field (components/ui/date-field.tsx; spread into en.ts). */
export const dateFieldEn: Record<keyof typeof dateFieldEs, string> = {
  "date.placeholder": "mm/dd/yyyy",
  "date.invalid": "Not a date: write it as mm/dd/yyyy.",
  "date.open": "Pick the date on a calendar",
  "date.calendar": "Calendar",
};
