import { useId, type ReactNode } from 'react'

/**
 * One of the Settings screen's sections after the site form (the rules of sends, the allowed link
 * domains): titled, its state said in words, then its control or who may change it.
 */
export function SettingsSection({ title, children }: { title: string; children: ReactNode }) {
  const id = useId()
  return (
    <section aria-labelledby={id} className="mx-auto mt-6 flex w-full max-w-5xl flex-col gap-2 rounded-md border border-slate-200 bg-white p-4 text-sm">
      <h2 id={id} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  )
}
