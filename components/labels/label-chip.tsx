import type { Label } from "@/lib/api-client/types";

const HEX = /^#[0-9a-fA-F]{6}$/;

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The chip's colours: the label's own bg_color and text_color, except that a text colour too
 * faint to read on its background (below WCAG AA 4.5:1) gives way to black or white, whichever
 * reads better. Malformed colours fall back to neutral ones.
 */
export function chipColors(bg: string, text: string) {
  const background = HEX.test(bg) ? bg : "#e2e8f0";
  const wanted = HEX.test(text) ? text : "#0f172a";
  if (contrast(background, wanted) >= 4.5) return { backgroundColor: background, color: wanted };
  return { backgroundColor: background, color: contrast(background, "#000000") >= contrast(background, "#ffffff") ? "#000000" : "#ffffff" };
}

/** A label in its own colours (spec 2.2). */
export function LabelChip({
  label,
  onRemove,
  removeLabel,
}: {
  label: Pick<Label, "title" | "bg_color" | "text_color"> & { id?: number };
  onRemove?: () => void;
  removeLabel?: string;
}) {
  const style = chipColors(label.bg_color, label.text_color);
  return (
    <span
      className="inline-flex max-w-full items-center gap-1 rounded-full py-0.5 pl-2.5 pr-1 text-xs font-medium"
      style={style}
      data-testid="label-chip"
      data-label-id={label.id}
    >
      <span className="truncate">{label.title}</span>
      {onRemove ? (
        <button
          type="button"
          onClick={onRemove}
          aria-label={removeLabel}
          title={removeLabel}
          className="flex h-5 w-5 items-center justify-center rounded-full hover:bg-black/15 focus-visible:outline-2"
          style={{ color: style.color }}
        >
          <span aria-hidden="true">×</span>
        </button>
      ) : (
        <span className="w-1.5" />
      )}
    </span>
  );
}
