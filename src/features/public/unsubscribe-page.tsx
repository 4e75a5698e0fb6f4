/**
 * The newsletter's unsubscribe page (/unsubscribe?token=..., public: the reader of a mail has no
 * session). Opening it changes nothing, since mail scanners follow links: it shows whom the link
 * is for and asks; only the button unsubscribes. A link that was altered, or has expired, says so.
 */
import { useEffect, useState } from 'react'
import { useSearch } from 'wouter'
import { unsubscribe, unsubscribeStatus } from '#contract/newsletter'
import { call } from '#src/lib/api.ts'
import { Button } from '#src/ui/button.tsx'
import { Spinner } from '#src/ui/spinner.tsx'
import { Outcome, PublicPage, failedMessage } from './public-page.tsx'

type State =
  | { kind: 'loading' }
  | { kind: 'asking'; email: string; busy: boolean }
  | { kind: 'not-subscribed'; email: string }
  | { kind: 'done'; message: string }
  | { kind: 'failed'; message: string }

export function UnsubscribePage() {
  const token = new URLSearchParams(useSearch()).get('token') ?? ''
  const [state, setState] = useState<State>({ kind: 'loading' })

  useEffect(() => {
    document.title = 'Unsubscribe · Newsletter'
  }, [])
  useEffect(() => {
    let live = true
    call(unsubscribeStatus, { token }).then(
      (answer) => live && setState(answer.data.subscribed ? { kind: 'asking', email: answer.data.email, busy: false } : { kind: 'not-subscribed', email: answer.data.email }),
      (error: unknown) => live && setState({ kind: 'failed', message: failedMessage(error) }),
    )
    return () => {
      live = false
    }
  }, [token])

  async function confirm(email: string) {
    setState({ kind: 'asking', email, busy: true })
    try {
      const answer = await call(unsubscribe, { token })
      setState({ kind: 'done', message: answer.message })
    } catch (error) {
      setState({ kind: 'failed', message: failedMessage(error) })
    }
  }

  return (
    <PublicPage title="Unsubscribe from the newsletter">
      {state.kind === 'loading' ? (
        <p className="flex items-center gap-2 text-slate-700">
          <Spinner className="size-4 text-indigo-700" /> Checking your link…
        </p>
      ) : state.kind === 'asking' ? (
        <>
          <p className="text-slate-800">
            Stop sending the newsletter to <strong>{state.email}</strong>? You will not receive it again.
          </p>
          <div>
            <Button onClick={() => void confirm(state.email)} disabled={state.busy}>
              {state.busy ? 'Unsubscribing…' : 'Unsubscribe'}
            </Button>
          </div>
        </>
      ) : state.kind === 'not-subscribed' ? (
        <p className="text-slate-800">
          <strong>{state.email}</strong> is not subscribed to the newsletter: you will not receive it.
        </p>
      ) : (
        <Outcome kind={state.kind} message={state.message} />
      )}
    </PublicPage>
  )
}
