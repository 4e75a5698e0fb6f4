/**
 * Undo after a delete or a freeze (contract/undo.ts): a write whose answer carries an undo ticket
 * shows its success message with an Undo button for the ticket's seconds instead of the plain
 * 2-second toast. The pending undos are kept in sessionStorage with their end time, so a reload
 * within the window brings the toast back with the time that is left. Undo calls `undo`, toasts
 * its answer and refetches like every write (refresh.ts). Offline no Undo is offered, and one
 * pressed offline says why (writes are never queued). Ctrl+Z (Cmd+Z), outside fields, presses the
 * latest one (undo-keys.ts, which loads this module when it is needed).
 */
import type { ScopedMutator } from 'swr'
import { z } from 'zod/mini'
import type { Endpoint } from '#contract/define'
import { UndoTicket, undo } from '#contract/undo'
import { call } from '#src/lib/api.ts'
import { WRITES_OFFLINE_MESSAGE, isOnline } from '#src/lib/online.ts'
import { toast } from '#src/ui/toast.ts'
import { errorMessage } from '../form/error-message.ts'
import { refreshAfterWrite } from './refresh.ts'
import { PENDING_UNDOS_KEY } from './undo-storage.ts'

export const UNDO_LABEL = 'Undo'
/** Said under a delete's question when its answer will offer Undo (the dialog's default says it cannot be undone). */
export const UNDO_NOTE = 'You can undo this for a few seconds afterwards.'

const Pending = z.object({ token: z.string(), message: z.string(), until: z.number(), admin: z.string() })
type Pending = z.output<typeof Pending>

/** The toasts on screen, by token. */
const shown = new Map<string, number>()

function stored(): Pending[] {
  try {
    const parsed = z.array(Pending).safeParse(JSON.parse(sessionStorage.getItem(PENDING_UNDOS_KEY) ?? '[]'))
    return parsed.success ? parsed.data.filter((p) => p.until > Date.now()) : []
  } catch {
    return []
  }
}

function store(list: readonly Pending[]): void {
  try {
    if (list.length === 0) sessionStorage.removeItem(PENDING_UNDOS_KEY)
    else sessionStorage.setItem(PENDING_UNDOS_KEY, JSON.stringify(list))
  } catch {
    // Storage refused (private mode, full): the toast still works until a reload.
  }
}

const forget = (token: string): void => store(stored().filter((p) => p.token !== token))

function show(pending: Pending, mutate: ScopedMutator): void {
  if (shown.has(pending.token)) return
  const id = toast.until(pending.message, UNDO_LABEL, () => void press(pending, mutate), pending.until, () => {
    shown.delete(pending.token)
    forget(pending.token)
  })
  shown.set(pending.token, id)
}

async function press(pending: Pending, mutate: ScopedMutator): Promise<void> {
  if (!isOnline()) {
    toast.error(WRITES_OFFLINE_MESSAGE)
    return
  }
  const id = shown.get(pending.token)
  if (id !== undefined) toast.dismiss(id)
  try {
    const answer = await call(undo, { token: pending.token })
    toast.success(answer.message)
    await refreshAfterWrite(mutate)
  } catch (error) {
    toast.error(errorMessage(error))
  }
}

/**
 * Toasts a write's answer: with an Undo while its ticket lasts (`admin`: whose session made it;
 * another admin signing in on this tab is not offered it), else the plain success toast. Called
 * through undo-keys.ts's toastWriteAnswer, which so knows this code is here for Ctrl+Z.
 */
export function toastAnswerWithUndo(answer: { message: string; undo?: unknown }, mutate: ScopedMutator, admin: string): void {
  const ticket = UndoTicket.safeParse(answer.undo)
  if (!ticket.success || !isOnline()) {
    toast.success(answer.message)
    return
  }
  const pending: Pending = { token: ticket.data.token, message: answer.message, until: Date.now() + ticket.data.seconds * 1000, admin }
  store([...stored(), pending])
  show(pending, mutate)
}

/** The note for a write's confirmation: whether its answer carries an undo ticket (contract/undo.ts). */
export const undoNote = (endpoint: Endpoint): string | undefined =>
  endpoint.output instanceof z.ZodMiniObject && 'undo' in endpoint.output.shape ? UNDO_NOTE : undefined

/** After a reload: the Undo toasts of `admin` still within their time come back, with the time left. */
export function resumeUndos(mutate: ScopedMutator, admin: string): void {
  if (!isOnline()) return
  for (const pending of stored()) if (pending.admin === admin) show(pending, mutate)
}

/** Presses the latest Undo on screen (Ctrl+Z); false when there is none. */
export function undoLatest(mutate: ScopedMutator, admin: string): boolean {
  const latest = stored()
    .filter((p) => p.admin === admin && shown.has(p.token))
    .at(-1)
  if (latest === undefined) return false
  void press(latest, mutate)
  return true
}
