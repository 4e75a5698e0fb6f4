/**
 * A send's mail as its readers get it (getNewsletterMail): the template frozen when the send was
 * requested, with its subject and body. In the send's View, so an Admin asked to approve a send
 * reads exactly what would go out, and a template saved since changes nothing there.
 */
import { getNewsletterMail } from '#contract/newsletter'
import { errorMessage } from '#src/crud/form/error-message.ts'
import { useCall } from '#src/lib/use-call.ts'
import { MailFrame } from '#src/crud/record/mail-frame.tsx'
import { Spinner } from '#src/ui/spinner.tsx'

export function SendMail({ id }: { id: string }) {
  const { data, error } = useCall(getNewsletterMail, { id })
  if (error !== undefined) return <p role="alert" className="text-sm text-red-700">Could not load the mail: {errorMessage(error)}</p>
  if (data === undefined)
    return (
      <p className="flex items-center gap-2 text-sm text-slate-700">
        <Spinner className="size-4 text-indigo-700" /> Loading the mail…
      </p>
    )
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-slate-700">As {data.data.sampleName} would receive it; each reader sees their own name and unsubscribe link.</p>
      <MailFrame html={data.data.html} title={`The mail: ${data.data.subject}`} />
    </div>
  )
}
