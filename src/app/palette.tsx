/**
 * The command palette (cmdk, Ctrl/Cmd+K): screens this session may open, actions it may take
 * (no write actions for View Only, and none offline), and records: those already in the cache at
 * once, offline too, and with the network up those the server finds (server-search.ts), joining
 * their groups when they arrive without moving the highlighted entry.
 */
import { use, useCallback, useEffect, useMemo, useState } from 'react'
import { Command } from 'cmdk'
import { useSWRConfig } from 'swr'
import { useLocation } from 'wouter'
import { Dialog as DialogPrimitive } from 'radix-ui'
import { useOnline, WRITES_OFFLINE_MESSAGE } from '#src/lib/online.ts'
import { cachedAnswers } from '#src/lib/swr-cache.ts'
import type { PaletteReader } from '#src/crud/screens/screens.ts'
import { useServerSearch } from './server-search.ts'
import { visibleEntries, type Entry } from './palette-filter.ts'
import { mayWrite, routes } from './route-table.ts'
import { logoutAndReload, useSession } from '#src/lib/session.ts'
import { THEMES, setTheme } from '#src/lib/theme.ts'
import { promptInstall, useInstallable } from '#src/lib/install.ts'
import { showShortcuts } from '#src/crud/list/list-keys.ts'
import { listSavedViews } from '#contract/saved-views'
import { endOtherSessions } from '#contract/auth'
import { ADD_PASSKEY } from '#contract/passkeys'
import { call } from '#src/lib/api.ts'
import { refreshAfterWrite } from '#src/crud/writes/refresh.ts'
import { toastWriteAnswer } from '#src/crud/writes/undo-keys.ts'
import { toast } from '#src/ui/toast.ts'

/** Records per source kept from the cache. */
const MAX_RECORDS = 500


interface LoadedSource {
  /** The screen the records belong to: the session must be allowed to open it. */
  path: string
  /** Its route, whose write rule says whether the records' actions are offered. */
  route: (typeof routes)[number]
  heading: string
  reader: PaletteReader
}

// The screens' palette sources, with their endpoints' schemas, load with the palette (the
// declarations keep them out of the first load). One that cannot load (offline, its chunk never
// cached) is left out of this opening and tried again at the next one.
let sourcesLoad: Promise<LoadedSource[]> | undefined
let someFailed = false
function loadSources(): Promise<LoadedSource[]> {
  sourcesLoad ??= Promise.all(
    routes.flatMap((row) => {
      const source = row.records
      if (!source) return []
      return [
        source.load().then(
          (reader): LoadedSource[] => [{ path: row.path, route: row, heading: source.heading, reader }],
          (): LoadedSource[] => {
            someFailed = true
            return []
          },
        ),
      ]
    }),
  ).then((loaded) => loaded.flat())
  return sourcesLoad
}
function retryFailedSources(): void {
  if (!someFailed) return
  someFailed = false
  sourcesLoad = undefined
}


const itemClass =
  'flex cursor-pointer items-center justify-between gap-3 rounded-md px-3 py-2 text-sm text-slate-800 data-[selected=true]:bg-indigo-50 data-[selected=true]:text-indigo-900 data-[disabled=true]:cursor-not-allowed data-[disabled=true]:opacity-60'
const groupClass = '[&_[cmdk-group-heading]]:px-3 [&_[cmdk-group-heading]]:pt-3 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:text-slate-600'

export function Palette({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const session = useSession()
  const online = useOnline()
  const [, navigate] = useLocation()
  const [search, setSearch] = useState('')
  const sources = use(loadSources())
  const installable = useInstallable()
  const { mutate } = useSWRConfig()
  const server = useServerSearch(search, online)
  useEffect(() => retryFailedSources, [])
  const go = useCallback(
    (href: string) => () => {
      onOpenChange(false)
      navigate(href)
    },
    [onOpenChange, navigate],
  )

  // Built once per opening: the palette shows the cache as it was when opened.
  const entries = useMemo((): Entry[] => {
    const entry = (group: string, key: string, label: string, detail: string, run: () => void, disabled = false): Entry => ({
      value: `${group}:${key}`,
      group,
      label,
      detail,
      haystack: `${group} ${label} ${detail}`.toLowerCase(),
      disabled,
      run,
    })
    const list: Entry[] = []
    for (const r of routes) {
      if (r.kind === 'page' && session.mayOpen(r.path)) {
        // Found by its page heading too ("Brand List" finds Brand Tab), which the detail shows.
        const screen = entry('Screens', r.path, r.title, r.heading === undefined ? r.path : `${r.heading} · ${r.path}`, go(r.path))
        list.push(screen)
      }
    }
    // Write actions only for Admin access (requirements R6.5), and unusable offline.
    for (const r of routes) {
      if (r.kind === 'action' && mayWrite(r, session) && session.mayOpen(r.path)) {
        // Add pages also open with n from their list (src/crud/list/list-keys.ts).
        const add = r.path.startsWith('/add')
        list.push({ ...entry('Actions', r.path, r.title, online ? (add ? 'or n on its list' : '') : 'Needs a connection', go(r.path), !online), ...(add ? { shortcut: 'n' } : {}) })
      }
    }
    list.push({
      ...entry('Actions', 'shortcuts', 'Keyboard shortcuts', '', () => {
        onOpenChange(false)
        showShortcuts()
      }),
      shortcut: '?',
    })
    if (installable) {
      list.push(entry('Actions', 'install', 'Install app', '', () => {
        onOpenChange(false)
        void promptInstall()
      }))
    }
    for (const t of THEMES) {
      list.push(entry('Actions', `theme-${t.value}`, `Use ${t.label.toLowerCase()}`, '', () => {
        onOpenChange(false)
        setTheme(t.value)
      }))
    }
    // Ends every other session of this admin on the server; like every write, not offline.
    list.push(
      entry('Actions', 'sign-out-others', 'Sign out of all other sessions', online ? '' : 'Needs a connection', () => {
        onOpenChange(false)
        call(endOtherSessions, {}).then(
          (answer) => toast.success(answer.count === 0 ? 'There were no other sessions to sign out' : answer.message),
          (error: unknown) => toast.error(error instanceof Error ? error.message : String(error)),
        )
      }, !online),
    )
    // The admin's own account, so View Only too; adding one needs a connection, as every write.
    // Profile's Passkeys section (src/features/account/passkeys-section.tsx) answers #passkeys.
    list.push(
      entry('Actions', 'add-passkey', ADD_PASSKEY, online ? 'on Profile' : 'Needs a connection', () => {
        go('/profile#passkeys')()
        // Already on Profile: the path did not change, so the section is told by the event it listens to.
        window.dispatchEvent(new HashChangeEvent('hashchange'))
      }, !online),
    )
    list.push(
      entry('Actions', 'logout', 'Logout', '', () => {
        onOpenChange(false)
        logoutAndReload()
      }),
    )
    // Saved views (src/crud/list/saved-views.tsx), from the cached answer: readable offline too.
    for (const answer of cachedAnswers(listSavedViews.name)) {
      const parsed = listSavedViews.output.safeParse(answer.data)
      if (!parsed.success) continue
      for (const v of parsed.data.result) {
        if (!session.mayOpen(v.route)) continue
        const screen = routes.find((r) => r.path === v.route)
        list.push(entry('Saved views', v._id, v.name, screen?.title ?? v.route, go(v.route + v.query)))
      }
    }
    for (const { path, route, heading, reader } of sources) {
      if (!session.mayOpen(path)) continue
      const writes = mayWrite(route, session)
      const seen = new Set<string>()
      for (const answer of cachedAnswers(reader.endpointName)) {
        for (const record of reader.records(answer.data)) {
          if (seen.has(record.id) || seen.size >= MAX_RECORDS) continue
          seen.add(record.id)
          list.push(entry(heading, record.id, record.label, record.detail, go(record.href)))
          if (!writes) continue
          for (const action of record.actions ?? []) {
            const run = () => {
              onOpenChange(false)
              action.run().then(
                async (answer) => {
                  // An undoable write (a freeze) offers Undo, as on its screen.
                  toastWriteAnswer(answer, mutate, session.userId)
                  await refreshAfterWrite(mutate)
                },
                (error: unknown) => toast.error(error instanceof Error ? error.message : String(error)),
              )
            }
            list.push(entry('Actions', `${record.id}:${action.label}`, `${action.label}: ${record.label}`, online ? heading : 'Needs a connection', run, !online))
          }
        }
      }
    }
    return list
  }, [session, online, go, onOpenChange, sources, installable, mutate])

  // What the server found: already matched by it (a wallet address too), so not filtered again.
  const found = useMemo(
    (): Entry[] =>
      server.state !== 'done'
        ? []
        : server.found.map((r) => ({
            value: `${r.heading}:${r.id}`,
            group: r.heading,
            label: r.label,
            detail: r.detail,
            haystack: '',
            disabled: false,
            run: go(r.href),
          })),
    [server, go],
  )

  // Our own filter (cmdk's is off): substring words, few records per group, and the first match
  // highlighted on every keystroke so Enter always acts on what is shown.
  const shown = useMemo(() => visibleEntries(entries, found, search), [entries, found, search])
  const firstEnabled = shown.find((e) => !e.disabled)?.value ?? ''
  const [chosen, setSelected] = useState(firstEnabled)
  const [selectedFor, setSelectedFor] = useState(search)
  if (selectedFor !== search) {
    // A new query highlights its first match (React's pattern for state following other state).
    setSelectedFor(search)
    setSelected(firstEnabled)
  }
  // Results joining later keep the highlighted entry; only when nothing was highlightable (no
  // match yet) does the first of them take the highlight, so Enter always acts on what is shown.
  const selected = shown.some((e) => e.value === chosen && !e.disabled) ? chosen : firstEnabled
  const groups = [...new Set(shown.map((e) => e.group))]

  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-slate-900/50 scheme-light" />
        <DialogPrimitive.Content className="fixed top-[12vh] left-1/2 z-50 w-[calc(100vw-2rem)] max-w-xl -translate-x-1/2 overflow-hidden rounded-lg bg-white shadow-2xl">
          <DialogPrimitive.Title className="sr-only">Command palette</DialogPrimitive.Title>
          <DialogPrimitive.Description className="sr-only">
            Type to find a screen, an action or a record, then press Enter.
          </DialogPrimitive.Description>
          <Command label="Command palette" loop shouldFilter={false} value={selected} onValueChange={setSelected}>
            <Command.Input
              value={search}
              onValueChange={setSearch}
              placeholder="Type a screen, an action, an email or a name…"
              className="h-12 w-full border-b border-slate-200 px-4 text-sm outline-none"
            />
            <Command.List className="max-h-[60vh] overflow-y-auto p-2">
              <Command.Empty className="px-3 py-6 text-center text-sm text-slate-600">No match.</Command.Empty>
              {groups.map((group) => (
                <Command.Group key={group} heading={group} className={groupClass}>
                  {shown
                    .filter((e) => e.group === group)
                    .map((e) => (
                      <Command.Item key={e.value} value={e.value} disabled={e.disabled} onSelect={e.run} className={itemClass}>
                        <span className="truncate">{e.label}</span>
                        {e.detail ? <span className="truncate text-xs text-slate-600">{e.detail}</span> : null}
                        {e.shortcut ? (
                          <kbd className="ml-auto shrink-0 rounded border border-slate-300 px-1.5 font-mono text-xs text-slate-700" aria-label={`Shortcut: ${e.shortcut}`}>
                            {e.shortcut}
                          </kbd>
                        ) : null}
                      </Command.Item>
                    ))}
                </Command.Group>
              ))}
            </Command.List>
            <p aria-live="polite" className="empty:hidden border-t border-slate-200 px-4 py-2 text-xs text-slate-600">
              {server.state === 'offline'
                ? 'Server search is unavailable offline: the records shown are those this device holds.'
                : server.state === 'searching'
                  ? 'Searching every list…'
                  : server.state === 'failed'
                    ? `Server search failed: ${server.message}`
                    : ''}
            </p>
            {online || !session.canWrite ? null : (
              <p className="border-t border-slate-200 px-4 py-2 text-xs text-amber-900">{WRITES_OFFLINE_MESSAGE}</p>
            )}
          </Command>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  )
}
