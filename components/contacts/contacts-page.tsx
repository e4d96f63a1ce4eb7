"use client";
import { useDeferredValue, useMemo, useState } from "react";
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useContacts } from "@/lib/api-client/contacts";
import { useLabels } from "@/lib/api-client/labels";
import { useT } from "@/lib/i18n";
import { EmptyState, ErrorBox, inputClass, PageTitle, SkeletonRows } from "@/components/ui";
import { Pager } from "@/components/ui/pager";
import { ContactRow } from "./contact-row";
import { LabelFilter } from "./label-filter";

/** `?label_id=1&label_id=2` of the page's URL (the labels page links here with one). */
function labelIdsOf(sp: URLSearchParams): number[] {
  return [...new Set(sp.getAll("label_id").map(Number))].filter((n) => Number.isInteger(n) && n > 0);
}

/** The CSV export of what the list shows (its search and labels). */
function exportHref(search: string, labelIds: number[]): string {
  const q = new URLSearchParams({ format: "csv" });
  if (search) q.set("search", search);
  for (const id of labelIds) q.append("label_id", String(id));
  return `/api/v1/contacts?${q}`;
}

/** Contact label editor: search by name or number, filter by labels, paginated, label chips per contact. */
export function ContactsPage() {
  const t = useT();
  const pathname = usePathname();
  const sp = useSearchParams();
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const deferred = useDeferredValue(search.trim());
  const urlIds = useMemo(() => labelIdsOf(sp), [sp]);
  // The checked labels answer a click at once; the URL follows (and a navigation, like the labels
  // page's link or Back, sets them again).
  const [labelIds, setLabelIds] = useState(urlIds);
  const urlKey = urlIds.join(",");
  const [seenUrlKey, setSeenUrlKey] = useState(urlKey);
  if (urlKey !== seenUrlKey) {
    setSeenUrlKey(urlKey);
    setLabelIds(urlIds);
  }
  const contacts = useContacts(deferred, page, 20, labelIds);
  const labels = useLabels();
  const pg = contacts.data?.pagination;

  function filterBy(ids: number[]) {
    const q = new URLSearchParams();
    for (const id of ids) q.append("label_id", String(id));
    setPage(1);
    setLabelIds(ids);
    // The browser's own history call: Next's router follows it (useSearchParams) without asking
    // the server for the page again, so the checkbox answers at once.
    window.history.replaceState(null, "", q.size ? `${pathname}?${q}` : pathname);
  }

  return (
    <>
      <PageTitle
        actions={
          <div className="flex flex-wrap gap-2">
            {/* The same filter as the list: what is shown is what is exported. */}
            <a
              href={exportHref(deferred, labelIds)}
              download
              className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium hover:bg-slate-100"
            >
              {t("contacts.export")}
            </a>
            <Link
              href="/contacts/import"
              className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium hover:bg-slate-100"
            >
              {t("import.link")}
            </Link>
          </div>
        }
      >
        {t("contacts.title")}
      </PageTitle>
      <div className="mb-4 grid gap-3 md:grid-cols-[minmax(0,1fr)_minmax(0,1fr)] md:items-start">
        <div>
          <label htmlFor="contact-search" className="mb-1 block text-sm font-medium">
            {t("contacts.search")}
          </label>
          <input
            id="contact-search"
            type="search"
            className={inputClass}
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setPage(1);
            }}
          />
        </div>
        {labels.data && labels.data.length > 0 && (
          <div className="md:pt-6">
            <LabelFilter labels={labels.data} selected={labelIds} onChange={filterBy} />
          </div>
        )}
      </div>
      {labels.isError && <ErrorBox error={labels.error} onRetry={() => labels.refetch()} />}
      {contacts.isError ? (
        <ErrorBox error={contacts.error} onRetry={() => contacts.refetch()} />
      ) : contacts.isLoading ? (
        <SkeletonRows rows={5} />
      ) : !contacts.data?.data.length ? (
        <EmptyState>{t("contacts.empty")}</EmptyState>
      ) : (
        <>
          <p className="mb-2 text-xs text-slate-600" aria-live="polite" data-testid="contacts-count">
            {pg?.total_items === 1 ? t("contacts.countOne") : t("contacts.count", { count: pg?.total_items ?? 0 })}
          </p>
          <ul className="grid gap-3 md:grid-cols-2" aria-busy={contacts.isFetching}>
            {contacts.data.data.map((c) => (
              <ContactRow key={c.id} contact={c} allLabels={labels.data ?? []} />
            ))}
          </ul>
          <Pager page={page} pagination={pg} onPage={setPage} className="mt-4" />
        </>
      )}
    </>
  );
}
