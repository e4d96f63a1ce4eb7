"use client";
import type { Pagination } from "@/lib/api-client/types";
import { useT } from "@/lib/i18n";
import { Button, cx } from "@/components/ui";

type Props = {
  /** The page asked for. The buttons step from it, not from `pagination`, which still describes
   *  the page shown while the next one loads (the lists keep their previous data meanwhile). */
  page: number;
  /** The server's pagination of the page shown; a single page (or none yet) draws no pager. */
  pagination: Pagination | undefined;
  onPage: (page: number) => void;
  /** What the pages are of, where the page holds other lists (prefixes the nav's name). */
  label?: string;
  className?: string;
};

/** Previous / "page N of M" / next under a paginated list. */
export function Pager({ page, pagination, onPage, label, className }: Props) {
  const t = useT();
  if (!pagination || pagination.total_pages <= 1) return null;
  const text = t("common.page", { page: pagination.current_page, total: pagination.total_pages });
  return (
    <nav className={cx("flex items-center justify-center gap-3", className)} aria-label={label ? `${label}: ${text}` : text}>
      <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t("common.previous")}
      </Button>
      <span className="text-sm">{text}</span>
      <Button variant="secondary" disabled={page >= pagination.total_pages} onClick={() => onPage(page + 1)}>
        {t("common.next")}
      </Button>
    </nav>
  );
}
