import type { WaNumber } from "@/lib/api-client/types";

/** The options of a company-number select, as every page writes them: `+digits · display name`. */
export function NumberOptions({ numbers }: { numbers: WaNumber[] | undefined }) {
  return (
    <>
      {numbers?.map((n) => (
        <option key={n.id} value={n.number}>
          +{n.number}
          {n.display_name ? ` · ${n.display_name}` : ""}
        </option>
      ))}
    </>
  );
}
