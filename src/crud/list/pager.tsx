import { Button } from '#src/ui/button.tsx'
import { DeferredSelect } from '#src/ui/deferred-select.tsx'
import { PAGE_SIZES, pageCount, pageWindow } from './list-query.ts'

const sizeOptions = (current: number) =>
  [...new Set<number>([...PAGE_SIZES, current])].sort((a, b) => a - b).map((n) => ({ value: String(n), label: String(n) }))

/** The page-size menu (10, 20, 50; requirements R9.1). */
export function PageSizeSelect({ limit, onChange }: { limit: number; onChange: (limit: number) => void }) {
  return (
    <div className="flex items-center gap-2 text-sm text-slate-700">
      <span aria-hidden="true">Rows per page</span>
      <DeferredSelect
        aria-label="Rows per page"
        value={String(limit)}
        options={sizeOptions(limit)}
        onValueChange={(v) => onChange(Number(v))}
        className="w-20"
      />
    </div>
  )
}

interface PagerProps {
  page: number
  limit: number
  /** The exact count; null while it is being counted (the rows came first) or when counting failed. */
  count: number | null
  /** Rows on this page, needed while the count is unknown: a full page means there may be a next one. */
  shown?: number
  /** The count call failed: said instead of "counting…", with a button to ask again. */
  countFailed?: { retry: () => void } | undefined
  onPage: (page: number) => void
}

/**
 * "Showing 11–20 of 53" and the page buttons; the current page is marked for screen readers.
 * Before the count is in: "Showing 1–50 of counting…", the pages up to this one, and Next while
 * the page is full; the last page's button comes with the count.
 */
export function Pager({ page, limit, count, shown = 0, countFailed, onPage }: PagerProps) {
  const pages = count === null ? page : pageCount(limit, count)
  const first = count === 0 || (count === null && shown === 0) ? 0 : (page - 1) * limit + 1
  const last = count === null ? (page - 1) * limit + shown : Math.min(count, page * limit)
  const hasNext = count === null ? shown === limit : page < pages
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-700">
      <p aria-live="polite" className="flex flex-wrap items-center gap-2">
        <span>
          Showing {first}–{last} of {count ?? (countFailed ? 'an unknown number' : <span className="text-slate-600">counting…</span>)}
        </span>
        {count === null && countFailed ? (
          <Button variant="outline" size="sm" onClick={countFailed.retry}>
            Count again
          </Button>
        ) : null}
      </p>
      {pages > 1 || hasNext ? (
        <nav aria-label="Pagination" className="flex items-center gap-1">
          <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            Previous
          </Button>
          {pageWindow(page, pages).map((p, i) =>
            p === null ? (
              <span key={`gap-${i}`} aria-hidden="true" className="px-1">
                …
              </span>
            ) : (
              <Button
                key={p}
                variant={p === page ? 'default' : 'outline'}
                size="sm"
                aria-label={`Page ${p}`}
                aria-current={p === page ? 'page' : undefined}
                onClick={() => onPage(p)}
                className="min-w-8 px-2"
              >
                {p}
              </Button>
            ),
          )}
          <Button variant="outline" size="sm" disabled={!hasNext} onClick={() => onPage(page + 1)}>
            Next
          </Button>
        </nav>
      ) : null}
    </div>
  )
}
