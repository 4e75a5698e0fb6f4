import { useState } from 'react'
import { useSWRConfig } from 'swr'
import { VERSIONS_PAGE_SIZE, listTemplateVersions, restoreTemplateVersion, type TemplateVersion } from '#contract/emails'
import { When } from '#src/crud/list/when.tsx'
import { formatDateTime } from '#src/lib/dates.ts'
import { errorMessage } from '#src/crud/form/error-message.ts'
import { refreshAfterWrite } from '#src/crud/writes/refresh.ts'
import { call } from '#src/lib/api.ts'
import { useCall } from '#src/lib/use-call.ts'
import { ConfirmDialog } from '#src/ui/alert-dialog.tsx'
import { Button } from '#src/ui/button.tsx'
import { Skeleton } from '#src/ui/skeleton.tsx'
import { toast } from '#src/ui/toast.ts'
import { MailFrame } from '#src/crud/record/mail-frame.tsx'

interface VersionsProps {
  id: string
  /** Admin: each version has Restore. */
  canRestore: boolean
  /** Offline: Restore is shown but says why it cannot be used. */
  blockedReason: string | undefined
  onRestored: (version: TemplateVersion) => void
}

const savedBy = (v: TemplateVersion): string => (v.savedBy === '' ? 'installed by the server' : `by ${v.savedBy}`)

/**
 * The Versions tab: what each save replaced, newest first, a page at a time; each can be shown as
 * the mail would look, and (Admin) restored after a confirmation. A restore is itself a save, so
 * the text it replaces appears here too.
 */
export function TemplateVersions({ id, canRestore, blockedReason, onRestored }: VersionsProps) {
  const [page, setPage] = useState(1)
  const { data, error, isLoading, mutate: retry } = useCall(listTemplateVersions, { id, page, limit: VERSIONS_PAGE_SIZE }, { keepPreviousData: true })
  const { mutate } = useSWRConfig()
  const [shown, setShown] = useState<string | null>(null)
  const [restoring, setRestoring] = useState<TemplateVersion | null>(null)
  const [busy, setBusy] = useState(false)

  async function restore(version: TemplateVersion) {
    setBusy(true)
    try {
      const answer = await call(restoreTemplateVersion, { id, versionId: version._id })
      toast.success(answer.message)
      setRestoring(null)
      setPage(1)
      onRestored(version)
      await refreshAfterWrite(mutate)
    } catch (failure) {
      toast.error(errorMessage(failure))
    } finally {
      setBusy(false)
    }
  }

  if (data === undefined) {
    if (error) {
      return (
        <div role="alert" className="flex items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <span>The versions could not be loaded: {errorMessage(error)}</span>
          <Button variant="outline" size="sm" onClick={() => void retry()}>
            Retry
          </Button>
        </div>
      )
    }
    return isLoading ? <Skeleton className="h-24 w-full" /> : null
  }
  const pages = Math.max(1, Math.ceil(data.count / VERSIONS_PAGE_SIZE))
  if (data.count === 0) return <p className="text-sm text-slate-600">No earlier versions yet: each save keeps the subject and content it replaces.</p>

  return (
    <div className="flex flex-col gap-3">
      <ol aria-label="Versions" className="flex flex-col divide-y divide-slate-200 rounded-md border border-slate-200">
        {data.result.map((v) => {
          const when = formatDateTime(v.savedAt)
          return (
            <li key={v._id} className="flex flex-col gap-2 px-3 py-2">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <div className="min-w-0 text-sm">
                  <p className="font-medium text-slate-900">
                    <When at={v.savedAt} /> <span className="font-normal text-slate-600">{savedBy(v)}</span>
                  </p>
                  <p className="break-words text-slate-700">Subject: {v.subject}</p>
                </div>
                <div className="flex gap-2">
                  <Button variant="outline" size="sm" aria-expanded={shown === v._id} onClick={() => setShown(shown === v._id ? null : v._id)}>
                    {shown === v._id ? 'Hide' : 'Show'}
                    <span className="sr-only"> the version of {when}</span>
                  </Button>
                  {canRestore ? (
                    <Button
                      size="sm"
                      aria-disabled={blockedReason ? true : undefined}
                      className={blockedReason ? 'opacity-50' : ''}
                      onClick={() => (blockedReason ? toast.error(blockedReason) : setRestoring(v))}
                    >
                      Restore<span className="sr-only"> the version of {when}</span>
                    </Button>
                  ) : null}
                </div>
              </div>
              {shown === v._id ? <MailFrame html={v.content} title={`The version of ${when}`} /> : null}
            </li>
          )
        })}
      </ol>
      {pages > 1 ? (
        <div className="flex items-center justify-between text-sm text-slate-700">
          <Button variant="outline" size="sm" disabled={page === 1} onClick={() => setPage(page - 1)}>
            Newer
          </Button>
          <span>
            Page {page} of {pages}
          </span>
          <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Older
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        open={restoring !== null}
        onOpenChange={(open) => (open || busy ? null : setRestoring(null))}
        title="Restore this version?"
        description="Its subject and content replace the current ones, which are kept as a version."
        confirmLabel="Restore"
        busyLabel="Restoring…"
        busy={busy}
        onConfirm={() => (restoring ? void restore(restoring) : undefined)}
      />
    </div>
  )
}
