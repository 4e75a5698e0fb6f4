/**
 * The template modal: Subject and Content (the kit's rich-text field, whose editor chunk loads
 * now), the variables of the template's mail to insert, a Preview tab rendered by the server, Send
 * test (to the signed-in admin's own address) and the Versions tab with Restore. Admin edits;
 * View Only (or Admin through View) reads the same modal with nothing to change.
 */
import { useState } from 'react'
import { Tabs } from 'radix-ui'
import { useWatch } from 'react-hook-form'
import { useSWRConfig } from 'swr'
import { editTemplate, getTemplate, sendTestTemplate, variablesOf, type EmailTemplate, type TemplateVersion } from '#contract/emails'
import { FieldControl } from '#src/crud/form/field-control.tsx'
import { reportHiddenErrors, showFailure, textOf, useContractForm, useFreshDefaults } from '#src/crud/form/form-hook.ts'
import { richText, text, type Values } from '#src/crud/form/form-fields.ts'
import { refreshAfterWrite } from '#src/crud/writes/refresh.ts'
import { useWriteAccess } from '#src/crud/writes/write-access.ts'
import { call } from '#src/lib/api.ts'
import { useCall } from '#src/lib/use-call.ts'
import { Button } from '#src/ui/button.tsx'
import { cn } from '#src/ui/cn.ts'
import { Dialog, DialogContent, DialogDescription, DialogFormFooter, DialogHeader, DialogTitle } from '#src/ui/dialog.tsx'
import { toast } from '#src/ui/toast.ts'
import { TemplatePreview } from './template-preview.tsx'
import { TemplateVersions } from './template-versions.tsx'

interface TemplateDialogProps {
  /** The row as the list shows it; the modal then reads the record itself (getTemplate). */
  template: EmailTemplate
  /** Opened by Edit (Admin) rather than View. */
  editable: boolean
  /** Once the modal has closed (and the focus is back on `returnFocus()`): the page may unmount it. */
  onClose: () => void
  /** The element that opened the modal, to focus again when it closes. */
  returnFocus: () => HTMLElement | null
}

const SHOWN = ['subject', 'content'] as const

const tabClass = cn(
  'border-b-2 border-transparent px-3 py-2 text-sm font-medium text-slate-600 hover:text-slate-900',
  'focus-visible:outline-2 focus-visible:outline-indigo-600 data-[state=active]:border-indigo-700 data-[state=active]:text-indigo-800',
)

export function TemplateDialog({ template, editable, onClose: closed, returnFocus }: TemplateDialogProps) {
  // Closed here first, so Radix runs its close (focus back to the opener); the page then unmounts it.
  const [open, setOpen] = useState(true)
  const onClose = () => setOpen(false)
  const { data } = useCall(getTemplate, { id: template.id })
  const record = data?.data ?? template
  const write = useWriteAccess()
  const canEdit = editable && write.allowed
  const { mutate } = useSWRConfig()

  const start: Values = { id: record.id, subject: record.subject, identifier: record.identifier, content: record.content }
  const form = useContractForm(editTemplate.input, start)
  useFreshDefaults(form, start, SHOWN)
  const [tab, setTab] = useState('content')
  const [sending, setSending] = useState(false)
  const { isSubmitting } = form.formState
  const [subject, content] = useWatch({ control: form.control, name: ['subject', 'content'] })
  const draft = { subject: textOf(subject), identifier: record.identifier, content: textOf(content) }

  // Built once: the fields are data, the variables of the template's mail come from the contract.
  const [fields] = useState(() => ({
    subject: text('subject', 'Subject'),
    content: richText('content', 'Content', {
      snippets: variablesOf(template.identifier).map((v) => ({ text: `{{${v.name}}}`, description: v.description, required: v.required })),
    }),
  }))

  const save = form.handleSubmit(async (values) => {
    try {
      const answer = await call(editTemplate, { id: record.id, subject: textOf(values['subject']), identifier: record.identifier, content: textOf(values['content']) })
      toast.success(answer.message)
      onClose()
      await refreshAfterWrite(mutate)
    } catch (error) {
      setTab('content')
      showFailure(form, error, SHOWN)
    }
  }, reportHiddenErrors(SHOWN))

  async function sendTest() {
    if (write.blockedReason) return toast.error(write.blockedReason)
    setSending(true)
    try {
      const answer = await call(sendTestTemplate, draft)
      toast.success(answer.message)
    } catch (error) {
      setTab('content')
      showFailure(form, error, SHOWN)
    } finally {
      setSending(false)
    }
  }

  function restored(version: TemplateVersion) {
    form.reset({ ...form.getValues(), subject: version.subject, content: version.content })
    setTab('content')
  }

  return (
    <Dialog open={open} onOpenChange={(next) => (next || isSubmitting ? undefined : onClose())}>
      <DialogContent
        className="sm:max-w-3xl"
        returnFocus={returnFocus}
        onCloseAutoFocus={closed}
      >
        <DialogHeader>
          <DialogTitle>{canEdit ? 'Edit Template' : 'View Template'}</DialogTitle>
          <DialogDescription>
            The mail the server sends as <span className="font-mono">{record.identifier}</span> ({record.langCode}, {record.status}).
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={save} aria-busy={isSubmitting} className="relative flex min-w-0 flex-col gap-4">
          {/* A steady height: the modal does not jump when a shorter tab is chosen. */}
          <Tabs.Root value={tab} onValueChange={setTab} className="flex min-h-[28rem] min-w-0 flex-col gap-4">
            <Tabs.List aria-label="Template" className="flex gap-1 border-b border-slate-200">
              <Tabs.Trigger value="content" className={tabClass}>
                Content
              </Tabs.Trigger>
              <Tabs.Trigger value="preview" className={tabClass}>
                Preview
              </Tabs.Trigger>
              <Tabs.Trigger value="versions" className={tabClass}>
                Versions
              </Tabs.Trigger>
            </Tabs.List>
            {/* Kept mounted while another tab shows: the editor keeps its text, cursor and undo history. */}
            <Tabs.Content value="content" forceMount className="flex flex-col gap-4 data-[state=inactive]:hidden">
              <FieldControl field={fields.subject} form={form} readOnly={!canEdit} />
              <FieldControl field={fields.content} form={form} readOnly={!canEdit} />
            </Tabs.Content>
            <Tabs.Content value="preview">{tab === 'preview' ? <TemplatePreview draft={draft} /> : null}</Tabs.Content>
            <Tabs.Content value="versions">
              {tab === 'versions' ? <TemplateVersions id={record.id} canRestore={canEdit} blockedReason={write.blockedReason} onRestored={restored} /> : null}
            </Tabs.Content>
          </Tabs.Root>
          {canEdit && write.blockedReason ? <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">{write.blockedReason}</p> : null}
          <DialogFormFooter
            className="flex-wrap"
            submit={canEdit ? 'Save' : undefined}
            cancel={canEdit ? 'Cancel' : 'Close'}
            onCancel={onClose}
            busy={isSubmitting}
            submitDisabled={write.blockedReason !== undefined}
          >
            {canEdit ? (
              <Button variant="outline" className="mr-auto" onClick={() => void sendTest()} disabled={sending || isSubmitting}>
                {sending ? 'Sending…' : 'Send test'}
              </Button>
            ) : null}
          </DialogFormFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
