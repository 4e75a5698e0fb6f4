/**
 * Saved views: a list's filters, search, page size and columns (its URL query) kept under a name
 * on the server, per admin; chosen from this dropdown, from the palette, and readable offline like
 * the lists (the answer is cached with them). Delete view asks nothing: its toast offers Undo.
 */
import { Suspense, lazy, useState } from 'react'
import { useSWRConfig } from 'swr'
import { useLocation, useSearch } from 'wouter'
import { deleteView, listSavedViews } from '#contract/saved-views'
import { call } from '#src/lib/api.ts'
import { useCall } from '#src/lib/use-call.ts'
import { useOnline, WRITES_OFFLINE_MESSAGE } from '#src/lib/online.ts'
import { useSession } from '#src/lib/session.ts'
import { Button } from '#src/ui/button.tsx'
import { DeferredSelect } from '#src/ui/deferred-select.tsx'
import { toast } from '#src/ui/toast.ts'
import { isCurrentView, withChoice, type ColumnChoice } from './column-choice.ts'
import { errorMessage } from '../form/error-message.ts'
import { toastWriteAnswer } from '../writes/undo-keys.ts'

const SaveViewDialog = lazy(async () => ({ default: (await import('./save-view-dialog.tsx')).SaveViewDialog }))

/** `columns`: the list's column choice, kept in a view it saves and compared with the views it lists. */
export function SavedViews({ route, columns }: { route: string; columns: { choice: ColumnChoice; ids: readonly string[] } }) {
  const search = useSearch()
  const query = search === '' ? '' : `?${search}`
  const [, navigate] = useLocation()
  const online = useOnline()
  const { data, mutate } = useCall(listSavedViews, {})
  const { mutate: mutateAll } = useSWRConfig()
  const { userId } = useSession()
  const [saving, setSaving] = useState(false)
  const views = (data?.result ?? []).filter((v) => v.route === route)
  const current = views.find((v) => isCurrentView(v.query, query, columns.choice, columns.ids))

  async function remove() {
    if (!current) return
    try {
      const answer = await call(deleteView, { id: current._id })
      await mutate()
      toastWriteAnswer({ message: `View “${current.name}” deleted`, undo: answer.undo }, mutateAll, userId)
    } catch (error) {
      toast.error(errorMessage(error))
    }
  }
  const offline = online ? undefined : WRITES_OFFLINE_MESSAGE

  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Saved views">
      <DeferredSelect
        aria-label="Saved views"
        value={current?._id ?? ''}
        options={views.map((v) => ({ value: v._id, label: v.name }))}
        placeholder={views.length === 0 ? 'No saved views' : 'Saved views'}
        // Open even when empty, and looking it: it says how a view is made, where a disabled one would say nothing.
        empty="None yet: Save view keeps this list's filters, search and columns under a name."
        onValueChange={(id) => {
          const view = views.find((v) => v._id === id)
          if (view) navigate(view.route + view.query)
        }}
        className="w-44"
      />
      <Button variant="outline" size="sm" onClick={() => (offline ? toast.error(offline) : setSaving(true))} aria-disabled={offline !== undefined}>
        Save view
      </Button>
      {current ? (
        <Button variant="ghost" size="sm" onClick={() => (offline ? toast.error(offline) : void remove())} aria-disabled={offline !== undefined}>
          Delete view
        </Button>
      ) : null}
      {saving ? (
        <Suspense fallback={null}>
          <SaveViewDialog
            route={route}
            query={withChoice(query, columns.choice)}
            onClose={() => setSaving(false)}
            onSaved={async (name) => {
              setSaving(false)
              await mutate()
              toast.success(`View “${name}” saved`)
            }}
          />
        </Suspense>
      ) : null}
    </div>
  )
}
