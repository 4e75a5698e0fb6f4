/**
 * Step-up in the browser: a call the server refuses with `step-up-required` (contract/common.ts,
 * StepUpRefusal) asks the admin to confirm it is them, and the API client (api.ts) repeats the call
 * once when they did. The question is a store the shell's layout shows as a dialog
 * (src/app/step-up-dialog.tsx); without a shell on screen there is nobody to ask and the call fails.
 */
import { useSyncExternalStore } from 'react'

/**
 * What the dialog asks for: the server's message, whether a 2FA code is needed besides the
 * password, and whether the admin has a passkey that may prove it instead.
 */
export interface StepUpRequest {
  message: string
  twoFactor: boolean
  passkey: boolean
}

interface Pending {
  request: StepUpRequest
  resolve: (proved: boolean) => void
}

/** The answer of a refused call whose proof was cancelled: nothing was done. */
export const STEP_UP_CANCELLED = 'Cancelled: nothing was done. This action needs you to confirm it is you.'

let pending: Pending | null = null
let shown = 0
const listeners = new Set<() => void>()
const notify = () => {
  for (const listener of listeners) listener()
}

/**
 * Asks the admin to prove it is them; resolves true once the proof was accepted, false when they
 * cancelled (or no shell is on screen to ask). Calls refused together share one question.
 */
export function askStepUp(request: StepUpRequest): Promise<boolean> {
  if (shown === 0) return Promise.resolve(false)
  const waiting = pending
  if (waiting !== null) {
    return new Promise((resolve) => {
      const previous = waiting.resolve
      waiting.resolve = (proved) => {
        previous(proved)
        resolve(proved)
      }
    })
  }
  return new Promise((resolve) => {
    pending = { request, resolve }
    notify()
  })
}

/** The dialog's answer: proved (the call is repeated) or cancelled. */
export function answerStepUp(proved: boolean): void {
  const current = pending
  pending = null
  notify()
  current?.resolve(proved)
}

/** Listens for questions; while one listener is there, calls are asked rather than failed at once. */
export function subscribeStepUp(listener: () => void): () => void {
  listeners.add(listener)
  shown += 1
  return () => {
    listeners.delete(listener)
    shown -= 1
  }
}

/** The open question, or null. */
export const currentStepUp = (): StepUpRequest | null => pending?.request ?? null

/** The open question, or null; the layout that reads it is the one that answers. */
export function useStepUpRequest(): StepUpRequest | null {
  return useSyncExternalStore(
    subscribeStepUp,
    currentStepUp,
    () => null,
  )
}
