/**
 * Automated Emails (requirements R2.21): the templates the server's own mails are rendered from, as a
 * table with serial number and subject. View opens the template read-only (everyone who may open
 * the screen); Edit, for Admin, opens the same modal editable (template-dialog.tsx, a chunk of its
 * own that brings the rich-text editor when it first opens).
 *
 * The table is the kit's list; its Action column is a custom one, because the modal is this
 * screen's own rather than the kit's view or edit dialog.
 */
import { Suspense, createContext, lazy, useContext, useMemo, useState } from 'react'
import { getemail, type EmailTemplate } from '#contract/emails'
import { col, serial } from '#src/crud/list/columns.tsx'
import { defineList } from '#src/crud/list/define-list.tsx'
import { pagedSource, type ListSource } from '#src/crud/list/list-source.ts'
import { ActionButton } from '#src/crud/writes/row-actions.tsx'
import { useWriteAccess } from '#src/crud/writes/write-access.ts'

const TemplateDialog = lazy(async () => ({ default: (await import('./template-dialog.tsx')).TemplateDialog }))

/** A template as a list row: the kit keys rows by `_id`, the contract names it `id` (requirements R3.4). */
type TemplateRow = EmailTemplate & { _id: string }

const pages = pagedSource(getemail)
const templates: ListSource<TemplateRow> = {
  sort: pages.sort,
  useRows(query) {
    const page = pages.useRows(query)
    const rows = useMemo(() => page.rows?.map((t) => ({ ...t, _id: t.id })), [page.rows])
    return { ...page, rows, allRows: undefined }
  },
}

interface Opened {
  template: EmailTemplate
  editable: boolean
}

const OpenTemplate = createContext<(opened: Opened) => void>(() => undefined)

/** View for everyone, Edit for Admin (shown offline too, saying why it cannot be used). */
function TemplateActions({ row }: { row: TemplateRow }) {
  const open = useContext(OpenTemplate)
  const write = useWriteAccess()
  return (
    <div className="flex items-center gap-1" data-template-actions={row.id}>
      <ActionButton icon="view" label="View" subject={row.subject} onClick={() => open({ template: row, editable: false })} />
      {write.allowed ? <ActionButton icon="edit" label="Edit" subject={row.subject} blockedReason={write.blockedReason} onClick={() => open({ template: row, editable: true })} /> : null}
    </div>
  )
}

const TemplateList = defineList({
  title: 'Automated Emails',
  empty: { says: 'The mails the platform sends by itself (sign-in codes, welcomes, replies) are written here.' },
  endpoint: templates,
  columns: [serial(), col('subject', 'Subject'), { header: 'Action', cell: (row: TemplateRow) => <TemplateActions row={row} /> }],
})

/** The row's button that opened the modal, found again when the table has drawn it anew (a tooltip swapped it in). */
function sameButton(opened: Opened): HTMLElement | null {
  const found = document.querySelector(`[data-template-actions="${CSS.escape(opened.template.id)}"] button[aria-label^="${opened.editable ? 'Edit' : 'View'} "]`)
  return found instanceof HTMLElement ? found : null
}

export function EmailTemplatesPage() {
  const [opened, setOpened] = useState<Opened | null>(null)
  return (
    <OpenTemplate.Provider value={setOpened}>
      <TemplateList />
      {opened ? (
        <Suspense fallback={null}>
          <TemplateDialog
            key={`${opened.template.id}-${String(opened.editable)}`}
            template={opened.template}
            editable={opened.editable}
            onClose={() => setOpened(null)}
            // The dialog gives focus back to the row button that opened it; when the table has drawn
            // that button anew, to its new copy.
            returnFocus={() => sameButton(opened)}
          />
        </Suspense>
      ) : null}
    </OpenTemplate.Provider>
  )
}
