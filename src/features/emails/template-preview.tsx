import { useEffect, useState } from 'react'
import { previewTemplate, type RenderedMail } from '#contract/emails'
import { errorMessage } from '#src/crud/form/error-message.ts'
import { call } from '#src/lib/api.ts'
import { Button } from '#src/ui/button.tsx'
import { Spinner } from '#src/ui/spinner.tsx'
import { MailFrame } from '#src/crud/record/mail-frame.tsx'

interface Draft {
  subject: string
  identifier: string
  content: string
}

type Rendered = { ok: true; mail: RenderedMail } | { ok: false; message: string }

/**
 * The Preview tab: the modal's current (unsaved) subject and content, rendered by the server as
 * the mail would be sent, with the sample values of the template's variables.
 */
export function TemplatePreview({ draft }: { draft: Draft }) {
  const [attempt, setAttempt] = useState(0)
  const key = JSON.stringify([draft.subject, draft.identifier, draft.content, attempt])
  const [result, setResult] = useState<{ key: string; rendered: Rendered } | null>(null)

  const { subject, identifier, content } = draft
  useEffect(() => {
    let current = true
    // Rendered again when the text changes (or on Retry), not when a parent rebuilds an equal draft.
    const key = JSON.stringify([subject, identifier, content, attempt])
    call(previewTemplate, { subject, identifier, content }).then(
      (answer) => current && setResult({ key, rendered: { ok: true, mail: answer.data } }),
      (error: unknown) => current && setResult({ key, rendered: { ok: false, message: errorMessage(error) } }),
    )
    return () => {
      current = false
    }
  }, [subject, identifier, content, attempt])

  if (result === null || result.key !== key) {
    return (
      <div role="status" className="flex h-80 items-center justify-center gap-2 text-sm text-slate-600">
        <Spinner /> Rendering the preview…
      </div>
    )
  }
  const { rendered } = result
  if (!rendered.ok) {
    return (
      <div role="alert" className="flex items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
        <span>The preview could not be rendered: {rendered.message}</span>
        <Button variant="outline" size="sm" onClick={() => setAttempt((n) => n + 1)}>
          Retry
        </Button>
      </div>
    )
  }
  return (
    <div className="flex flex-col gap-3">
      <p className="text-xs text-slate-600">With sample values for the variables. Nothing is saved or sent.</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-sm">
        <dt className="font-medium text-slate-700">Subject</dt>
        <dd className="break-words text-slate-900">{rendered.mail.subject}</dd>
      </dl>
      <MailFrame html={rendered.mail.html} title="Preview of the mail" />
      <details className="text-sm">
        <summary className="cursor-pointer font-medium text-slate-800">Plain-text version</summary>
        <pre className="mt-2 max-h-60 overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs whitespace-pre-wrap text-slate-900">{rendered.mail.text}</pre>
      </details>
    </div>
  )
}
