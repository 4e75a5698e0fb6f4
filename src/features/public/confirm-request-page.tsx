/**
 * The access request's confirmation page (/confirm-request?token=..., public: the requester has
 * no session). Opening it changes nothing, since mail scanners follow links: only its button
 * confirms (server/areas/access-requests/routes.ts). A link that was replaced, used or has expired says so.
 */
import { useEffect, useState } from 'react'
import { Link, useSearch } from 'wouter'
import { confirmAccessRequest } from '#contract/access-requests'
import { call } from '#src/lib/api.ts'
import { Button } from '#src/ui/button.tsx'
import { Outcome, PublicPage, failedMessage } from './public-page.tsx'

type State = { kind: 'asking'; busy: boolean } | { kind: 'done'; message: string } | { kind: 'failed'; message: string }

export function ConfirmRequestPage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? ''
  const [state, setState] = useState<State>({ kind: 'asking', busy: false })

  useEffect(() => {
    document.title = 'Confirm your email · Back Office'
  }, [])

  async function confirm() {
    setState({ kind: 'asking', busy: true })
    try {
      const answer = await call(confirmAccessRequest, { token })
      setState({ kind: 'done', message: answer.message })
    } catch (error) {
      setState({ kind: 'failed', message: failedMessage(error) })
    }
  }

  return (
    <PublicPage title="Confirm your email address">
      {state.kind === 'asking' ? (
        <>
          <p className="text-slate-800">
            You asked for access to the back office. Confirm that this email address is yours, and an administrator will review your request.
          </p>
          <div>
            <Button onClick={() => void confirm()} disabled={state.busy}>
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
