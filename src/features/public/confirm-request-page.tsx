/**
 * The access request's confirmation page (/confirm-request?token=..., public: the requester has
 * no session). Opening it changes nothing, since mail scanners follow links: it shows the request
 * the link confirms (the name, address and time it was made), so the mailbox's owner can tell a
 * request they did not make, and only its button confirms
 * (server/areas/access-requests/routes.ts). A link that was replaced, used or has expired says so.
 */
import { useEffect, useState } from 'react'
import { Link, useSearch } from 'wouter'
import { confirmAccessRequest, getRequestToConfirm, type RequestToConfirm } from '#contract/access-requests'
import { When } from '#src/crud/list/when.tsx'
import { call } from '#src/lib/api.ts'
import { Button } from '#src/ui/button.tsx'
import { Spinner } from '#src/ui/spinner.tsx'
import { Outcome, PublicPage, failedMessage } from './public-page.tsx'

type State =
  | { kind: 'loading' }
  | { kind: 'asking'; request: RequestToConfirm; busy: boolean }
  | { kind: 'done'; message: string }
  | { kind: 'failed'; message: string }

export function ConfirmRequestPage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? ''
  const [state, setState] = useState<State>({ kind: 'loading' })

  useEffect(() => {
    document.title = 'Confirm your email · Back Office'
  }, [])
  useEffect(() => {
    let live = true
    call(getRequestToConfirm, { token }).then(
      (answer) => live && setState({ kind: 'asking', request: answer.data, busy: false }),
      (error: unknown) => live && setState({ kind: 'failed', message: failedMessage(error) }),
    )
    return () => {
      live = false
    }
  }, [token])

  async function confirm(request: RequestToConfirm) {
    setState({ kind: 'asking', request, busy: true })
    try {
      const answer = await call(confirmAccessRequest, { token })
      setState({ kind: 'done', message: answer.message })
    } catch (error) {
      setState({ kind: 'failed', message: failedMessage(error) })
    }
  }

  return (
    <PublicPage title="Confirm your email address">
      {state.kind === 'loading' ? (
        <p className="flex items-center gap-2 text-slate-700">
          <Spinner className="size-4 text-indigo-700" /> Checking your link…
        </p>
      ) : state.kind === 'asking' ? (
        <>
          <p className="text-slate-800">This link confirms the following request for access to the back office:</p>
          <dl aria-label="Access request" className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm text-slate-900">
            <dt className="text-slate-700">Name</dt>
            <dd className="break-words">{state.request.name}</dd>
            <dt className="text-slate-700">Email</dt>
            <dd className="break-all">{state.request.email}</dd>
            <dt className="text-slate-700">Requested At</dt>
            <dd>
              <When at={state.request.createdAt} />
            </dd>
          </dl>
          <p className="text-slate-800">
            If you made this request, confirm that this email address is yours, and an administrator will review it. If you did not, do not confirm: nothing happens without it.
          </p>
          <div>
            <Button onClick={() => void confirm(state.request)} disabled={state.busy}>
              {state.busy ? 'Confirming…' : 'Confirm my email address'}
            </Button>
          </div>
        </>
      ) : (
        <Outcome kind={state.kind} message={state.message} />
      )}
      <p className="text-sm text-slate-700">
        <Link href="/login" className="font-medium text-indigo-700 underline-offset-4 hover:underline">
          Back to Login
        </Link>
      </p>
    </PublicPage>
  )
}
