/**
 * Who else is there (contract/presence.ts): a record's page and its edit form say, over the live
 * link, that this tab has the record open (again every heartbeat, and after every reconnect), and
 * show the other staff who have it open, with since when. A list watches its screen and marks the
 * rows someone else is editing. When another admin saves a record this tab has open, a banner
 * says who and when, with Reload; the save's version check (409) stays the last line of defence.
 * The server decides who may see or be seen: a screen the admin may not open is refused.
 */
import { useEffect, useState } from 'react'
import { useLocation } from 'wouter'
import { PRESENCE_HEARTBEAT_MS, PresenceAnswer, PresenceState, RecordSaved, type PresenceMode, type PresencePerson } from '#contract/presence'
import { SocketEvents } from '#contract/socket'
import { onRealtime, onRealtimeConnect, sendRealtime } from '#src/lib/realtime-events.ts'
import { useSession } from '#src/lib/session.ts'
import { Button } from '#src/ui/button.tsx'
import { toast } from '#src/ui/toast.ts'
import { errorMessage } from '../form/error-message.ts'
import { ActionIcon } from '../screens/icons.tsx'

/**
 * The other admins in `people`, one each (their tabs folded together: editing over reading, the
 * earliest since), the reader's own tabs left out, earliest first.
 */
export function othersOf(people: readonly PresencePerson[], me: string): PresencePerson[] {
  const byAdmin = new Map<string, PresencePerson>()
  for (const person of people) {
    if (person.adminId === me) continue
    const seen = byAdmin.get(person.adminId)
    if (seen === undefined) {
      byAdmin.set(person.adminId, person)
      continue
    }
    const mode = seen.mode === 'edit' || person.mode === 'edit' ? 'edit' : 'view'
    byAdmin.set(person.adminId, { ...seen, mode, since: seen.since < person.since ? seen.since : person.since })
  }
  return [...byAdmin.values()].sort((a, b) => a.since.localeCompare(b.since))
}

/**
 * `next`, or `previous` when they say the same: a heartbeat's answer that changes nothing must not
 * re-render the screen (a list re-rendered every few seconds would restart its own timers).
 */
function unlessSame<T>(next: T): (previous: T) => T {
  const said = JSON.stringify(next instanceof Map ? [...next] : next)
  return (previous) => (JSON.stringify(previous instanceof Map ? [...previous] : previous) === said ? previous : next)
}

/** The time of day, as the reader's locale writes it ("14:05", "2:05 PM"). */
const timeOfDay = (iso: string): string => new Date(iso).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' })

/** Up to two initials of a name, for its badge. */
const initials = (name: string): string =>
  name
    .split(/\s+/)
    .filter((part) => part !== '')
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('') || '?'

/**
 * This tab has record `id` open on the current screen (nothing while `id` is ''): who else has it
 * open, and the last save by another admin since it was opened (`dismiss` forgets it).
 */
export function useRecordPresence(id: string, mode: PresenceMode): { others: PresencePerson[]; saved: RecordSaved | null; dismiss: () => void } {
  const [screen] = useLocation()
  const { userId } = useSession()
  const [people, setPeople] = useState<PresencePerson[]>([])
  const [saved, setSaved] = useState<RecordSaved | null>(null)
  useEffect(() => {
    if (id === '') return
    let stopped = false
    const open = () => {
      sendRealtime(SocketEvents.presenceOpen, { screen, id, mode }).then(
        (raw) => {
          if (stopped) return
          const answer = PresenceAnswer.safeParse(raw)
          setPeople(unlessSame(answer.success && answer.data.ok ? (answer.data.records.find((r) => r.id === id)?.people ?? []) : []))
        },
        // The link is down: nobody is shown rather than whoever was there when it went; the next connect says it again.
        () => {
          if (!stopped) setPeople(unlessSame<PresencePerson[]>([]))
        },
      )
    }
    open()
    const heartbeat = setInterval(open, PRESENCE_HEARTBEAT_MS)
    const offConnect = onRealtimeConnect(open)
    const offPresence = onRealtime(SocketEvents.presence, (raw) => {
      const state = PresenceState.safeParse(raw)
      if (state.success && state.data.id === id) setPeople(state.data.people)
    })
    const offSaved = onRealtime(SocketEvents.recordSaved, (raw) => {
      const change = RecordSaved.safeParse(raw)
      if (change.success && change.data.id === id && change.data.adminId !== userId) setSaved(change.data)
    })
    return () => {
      stopped = true
      clearInterval(heartbeat)
      offConnect()
      offPresence()
      offSaved()
      setPeople([])
      setSaved(null)
      // Closing the socket would do as much; a page left while the tab stays open says so itself.
      sendRealtime(SocketEvents.presenceClose, { screen, id }).catch(() => undefined)
    }
  }, [screen, id, mode, userId])
  return { others: othersOf(people, userId), saved, dismiss: () => setSaved(null) }
}

/** "Ann Admin changed this record at 14:07", with Reload (and Dismiss, to keep what is on screen). */
function ChangedBanner({ saved, editing, onReload, onDismiss }: { saved: RecordSaved; editing: boolean; onReload: (() => Promise<void>) | undefined; onDismiss: () => void }) {
  const [busy, setBusy] = useState(false)
  const reload = async () => {
    if (!onReload) return
    setBusy(true)
    try {
      await onReload()
      onDismiss()
    } catch (error) {
      // Offline, or the record was deleted meanwhile: say why, and keep the page as it is.
      toast.error(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div role="alert" className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
      <span>
        <strong className="font-semibold">{saved.name || 'Another admin'}</strong> changed this record at{' '}
        <time dateTime={saved.at} title={new Date(saved.at).toLocaleString()}>
          {timeOfDay(saved.at)}
        </time>
        .{editing ? ' Reload to see the change; what you have typed here and not saved will go.' : ' Reload to see the change.'}
      </span>
      <span className="flex items-center gap-2">
        <Button variant="ghost" size="sm" onClick={onDismiss}>
          Dismiss
        </Button>
        {onReload ? (
          <Button variant="outline" size="sm" onClick={() => void reload()} disabled={busy}>
            {busy ? 'Reloading…' : 'Reload'}
          </Button>
        ) : null}
      </span>
    </div>
  )
}

/** The other staff on this record, one badge each: initials, name, reading or editing, since when. */
export function PresenceLine({ others }: { others: readonly PresencePerson[] }) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span className="text-slate-700">Also here:</span>
      <ul className="flex flex-wrap items-center gap-2">
        {others.map((person) => (
          <li key={person.adminId} className="flex items-center gap-2 rounded-full border border-slate-200 bg-white py-0.5 pr-3 pl-0.5">
            <span aria-hidden="true" className="flex size-6 items-center justify-center rounded-full bg-indigo-100 text-xs font-semibold text-indigo-800">
              {initials(person.name)}
            </span>
            <span className="font-medium text-slate-900">{person.name}</span>
            <span className="text-slate-600">
              {person.mode === 'edit' ? 'editing' : 'viewing'} since{' '}
              <time dateTime={person.since} title={new Date(person.since).toLocaleString()}>
                {timeOfDay(person.since)}
              </time>
            </span>
          </li>
        ))}
      </ul>
    </div>
  )
}

/**
 * Everything a record's screen shows about the others on it: the banner after another admin's
 * save, and who else has it open. `onReload` fetches the record again (an edit form starts again from it).
 */
export function RecordPresence({ id, mode, onReload }: { id: string; mode: PresenceMode; onReload?: (() => Promise<void>) | undefined }) {
  const { others, saved, dismiss } = useRecordPresence(id, mode)
  return (
    <>
      {saved ? <ChangedBanner saved={saved} editing={mode === 'edit'} onReload={onReload} onDismiss={dismiss} /> : null}
      {/* Polite: someone arriving must not interrupt what the reader is doing. */}
      <div role="status" aria-live="polite" className={others.length === 0 ? 'sr-only' : undefined}>
        {others.length === 0 ? null : <PresenceLine others={others} />}
      </div>
    </>
  )
}

/**
 * A list watches its screen: the rows someone else is editing now, by record id (their editors,
 * the reader left out). Empty while the link is down.
 */
export function useListPresence(enabled: boolean): ReadonlyMap<string, PresencePerson[]> {
  const [screen] = useLocation()
  const { userId } = useSession()
  const [states, setStates] = useState<ReadonlyMap<string, PresencePerson[]>>(new Map())
  useEffect(() => {
    if (!enabled) return
    let stopped = false
    const watch = () => {
      sendRealtime(SocketEvents.presenceWatch, { screen }).then(
        (raw) => {
          if (stopped) return
          const answer = PresenceAnswer.safeParse(raw)
          setStates(unlessSame<ReadonlyMap<string, PresencePerson[]>>(new Map(answer.success && answer.data.ok ? answer.data.records.map((r) => [r.id, r.people]) : [])))
        },
        () => {
          if (!stopped) setStates(unlessSame<ReadonlyMap<string, PresencePerson[]>>(new Map()))
        },
      )
    }
    watch()
    const heartbeat = setInterval(watch, PRESENCE_HEARTBEAT_MS)
    const offConnect = onRealtimeConnect(watch)
    const offPresence = onRealtime(SocketEvents.presence, (raw) => {
      const state = PresenceState.safeParse(raw)
      if (!state.success || state.data.screen !== screen) return
      const { id, people } = state.data
      setStates((previous) => new Map(previous).set(id, people))
    })
    return () => {
      stopped = true
      clearInterval(heartbeat)
      offConnect()
      offPresence()
      setStates(new Map())
      sendRealtime(SocketEvents.presenceUnwatch, { screen }).catch(() => undefined)
    }
  }, [enabled, screen])
  const editing = new Map<string, PresencePerson[]>()
  for (const [id, people] of states) {
    const editors = othersOf(people, userId).filter((p) => p.mode === 'edit')
    if (editors.length > 0) editing.set(id, editors)
  }
  return editing
}

/** A list row's mark while others edit its record: a pencil and the first editor's name. */
export function EditingMark({ editors }: { editors: readonly PresencePerson[] }) {
  const [first] = editors
  if (first === undefined) return null
  const names = editors.map((p) => p.name).join(', ')
  const label = `${names} ${editors.length === 1 ? 'is' : 'are'} editing this record`
  return (
    <span title={label} className="ml-2 inline-flex max-w-40 items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 align-middle text-xs font-medium whitespace-nowrap text-amber-900">
      <ActionIcon name="edit" />
      <span aria-hidden="true" className="truncate">
        {editors.length === 1 ? first.name : `${first.name} +${editors.length - 1}`}
      </span>
      <span className="sr-only">{label}</span>
    </span>
  )
}
