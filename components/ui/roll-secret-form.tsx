"use client";
import { useState } from "react";
import { useT, type MessageKey } from "@/lib/i18n";
import { Button, inputClass } from "@/components/ui";

/** How long the old secret keeps working after a roll, in hours (0: it ends at once). */
export const ROLL_OVERLAPS = [0, 1, 24, 168] as const;

/**
 * The roll of a secret (an API token, a webhook endpoint's signing secret): what a roll does, how
 * long the old one overlaps the new, and the confirmation. The caller rolls and shows the new secret.
 */
export function RollSecretForm({
  explain,
  overlapLabel,
  confirmLabel,
  pending,
  onRoll,
  onCancel,
}: {
  explain: string;
  overlapLabel: string;
  confirmLabel: string;
  pending: boolean;
  onRoll: (overlapHours: number) => void;
  onCancel: () => void;
}) {
  const t = useT();
  const [overlap, setOverlap] = useState<number>(24);
  return (
    <form
      className="mt-3 space-y-2 border-t border-slate-100 pt-3"
      onSubmit={(e) => {
        e.preventDefault();
        onRoll(overlap);
      }}
    >
      <p className="text-sm text-slate-700">{explain}</p>
      <div className="flex flex-wrap items-end gap-2">
        <label className="text-sm">
          <span className="mb-1 block font-medium">{overlapLabel}</span>
          <select className={inputClass} value={overlap} onChange={(e) => setOverlap(Number(e.target.value))}>
            {ROLL_OVERLAPS.map((h) => (
              <option key={h} value={h}>
                {t(`tokens.overlap.${h}` as MessageKey)}
              </option>
            ))}
          </select>
        </label>
        <Button type="submit" disabled={pending}>
          {confirmLabel}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t("common.cancel")}
        </Button>
      </div>
    </form>
  );
}
