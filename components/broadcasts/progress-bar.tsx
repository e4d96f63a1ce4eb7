"use client";
import { cx } from "@/components/ui";

/** A determinate progress bar: a native role=progressbar with its value as text beside it. */
export function ProgressBar({
  value,
  max,
  label,
  text,
  className,
  testId,
}: {
  value: number;
  max: number;
  label: string;
  text: string;
  className?: string;
  testId?: string;
}) {
  const percent = max > 0 ? Math.min(100, Math.floor((value / max) * 100)) : 0;
  return (
    <div className={cx("space-y-1", className)}>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={max}
        aria-valuenow={Math.min(value, max)}
        aria-valuetext={text}
        data-testid={testId}
        data-percent={percent}
        className="h-2.5 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-wa-green transition-[width] duration-300" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-xs text-slate-700">{text}</p>
    </div>
  );
}
