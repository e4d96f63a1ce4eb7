/**
 * What the UI calls a contact: its name, else its number ("+573009876543"), and only when it has
 * neither its `customer_id` (the integrator's key, not a word an agent reads).
 */
export function contactDisplayName(c: { name?: string | null; customer_number?: string | null; customer_id?: string | null }): string {
  return c.name?.trim() || (c.customer_number ? `+${c.customer_number}` : "") || c.customer_id || "—";
}
