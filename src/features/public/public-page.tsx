/**
 * The frame of the public pages a mailed link opens (unsubscribe, confirm an access request):
 * no session, one question, one button, then the server's answer. Their outcome reads the same
 * on each: the server's message, as a status once done or an alert when the link failed.
 */
import type { ReactNode } from 'react'
import { ApiError } from '#src/lib/api.ts'

export const failedMessage = (error: unknown): string => (error instanceof ApiError && error.message !== '' ? error.message : 'Something went wrong. Please try again later.')

export function PublicPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="mx-auto flex max-w-lg flex-col gap-4 px-5 py-16 leading-relaxed">
      <h1 className="text-2xl font-semibold text-slate-900">{title}</h1>
      <div aria-live="polite" className="flex flex-col gap-4">
        {children}
      </div>
    </main>
  )
}

export function Outcome({ kind, message }: { kind: 'done' | 'failed'; message: string }) {
  return kind === 'done' ? (
    <p role="status" className="rounded-md border border-emerald-200 bg-emerald-50 px-4 py-3 text-emerald-900">
      {message}
    </p>
  ) : (
    <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-red-900">
      {message}
    </p>
  )
}
