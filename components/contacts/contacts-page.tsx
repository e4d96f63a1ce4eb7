"use client";
import { useDeferredValue, useState } from "react";
import Link from "next/link";
import { useContacts, useLabels } from "@/lib/api-client/hooks";
import { useT } from "@/lib/i18n";
import { Button, EmptyState, ErrorBox, inputClass, PageTitle, SkeletonRows } from "@/components/ui";
import { ContactRow } from "./contact-row";

/** Contact label editor: search by name or number, paginated, label chips per contact. */
export function ContactsPage() {
  const t = useT();
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const deferred = useDeferredValue(search.trim());
  const contacts = useContacts(deferred, page);
  const labels = useLabels();
  const pg = contacts.data?.pagination;

  return (
    <>
      <PageTitle
        actions={
          <Link
            href="/contacts/import"
            className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium hover:bg-slate-100"
          >
            {t("import.link")}
          </Link>
        }
      >
        {t("contacts.title")}
      </PageTitle>
      <div className="mb-4">
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
      {labels.isError && <ErrorBox error={labels.error} onRetry={() => labels.refetch()} />}
      {contacts.isError ? (
        <ErrorBox error={contacts.error} onRetry={() => contacts.refetch()} />
      ) : contacts.isLoading ? (
        <SkeletonRows rows={5} />
      ) : !contacts.data?.data.length ? (
        <EmptyState>{t("contacts.empty")}</EmptyState>
      ) : (
        <>
          <p className="mb-2 text-xs text-slate-600" aria-live="polite">
            {t("contacts.count", { count: pg?.total_items ?? 0 })}
          </p>
          <ul className="grid gap-3 md:grid-cols-2" aria-busy={contacts.isFetching}>
            {contacts.data.data.map((c) => (
              <ContactRow key={c.id} contact={c} allLabels={labels.data ?? []} />
            ))}
          </ul>
          {pg && pg.total_pages > 1 && (
            <nav
              className="mt-4 flex items-center justify-center gap-3"
              aria-label={t("common.page", { page: pg.current_page, total: pg.total_pages })}
            >
              <Button variant="secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                {t("common.previous")}
              </Button>
              <span className="text-sm">{t("common.page", { page: pg.current_page, total: pg.total_pages })}</span>
              <Button variant="secondary" disabled={page >= pg.total_pages} onClick={() => setPage((p) => p + 1)}>
                {t("common.next")}
              </Button>
            </nav>
          )}
        </>
      )}
    </>
  );
}
