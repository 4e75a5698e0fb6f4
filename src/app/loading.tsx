/** Shown while a lazy screen loads; announced politely so screen readers know something is coming. */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" className="flex min-h-40 items-center justify-center p-6 text-sm text-slate-600">
      <span className="mr-3 inline-block size-4 animate-spin rounded-full border-2 border-slate-300 border-t-indigo-700" aria-hidden="true" />
      {label}
    </div>
  )
}
