/**
 * The command palette (cmdk, Ctrl/Cmd+K): screens this session may open, actions it may take
 * (no write actions for View Only, and none offline), and records already in the cache. It reads
 * nothing from the network, so it works offline.
 */
import { useMemo } from 'react'
import { Command } from 'cmdk'
import { useLocation } from 'wouter'
import { Dialog as DialogPrimitive } from 'radix-ui'
import { useOnline, WRITES_OFFLINE_MESSAGE } from '#src/lib/online.ts'
import { cachedAnswers } from '#src/lib/swr-cache.ts'
import { paletteSources, type PaletteRecord } from './palette-sources.ts'
import { routes } from './routes.tsx'
import { logout, useSession } from './session.ts'

/** Records per source: enough to find recent ones, few enough to keep typing instant. */
const MAX_RECORDS = 300

const itemClass =
  'flex cursor-pointer items-center justify-between gap-3 rounded-md px-3 py-2 text-sm text-slate-800 data-[selected=true]:bg-indigo-50 data-[selected=true]:text-indigo-900 data-[disabled=true]:cursor-not-allowed data-[disabled=true]:opacity-60'
const groupClass = '[&_[cmdk-group-heading]]:px-3 [&_[cmdk-group-heading]]:pt-3 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:text-slate-600'

export function Palette({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const session = useSession()
  const online = useOnline()
  const [, navigate] = useLocation()

  const go = (href: string) => {
    onOpenChange(false)
    navigate(href)
  }

  const screens = routes.filter((r) => r.kind === 'page' && session.mayOpen(r.path))
  const actions = session.canWrite ? routes.filter((r) => r.kind === 'action' && session.mayOpen(r.path)) : []
  // Read once per opening: the palette shows the cache as it was when opened.
  const records = useMemo(
    () =>
      paletteSources
        .filter((s) => session.mayOpen(s.route))
        .map((s) => {
          const seen = new Map<string, PaletteRecord>()
          for (const answer of cachedAnswers(s.endpointName)) {
            for (const record of s.records(answer.data)) if (!seen.has(record.id)) seen.set(record.id, record)
            if (seen.size >= MAX_RECORDS) break
          }
          return { heading: s.heading, items: [...seen.values()].slice(0, MAX_RECORDS) }
        })
        .filter((s) => s.items.length > 0),
    [session],
  )

  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <DialogPrimitive.Content className="fixed top-[12vh] left-1/2 z-50 w-[calc(100vw-2rem)] max-w-xl -translate-x-1/2 overflow-hidden rounded-lg bg-white shadow-2xl">
          <DialogPrimitive.Title className="sr-only">Command palette</DialogPrimitive.Title>
          <DialogPrimitive.Description className="sr-only">
            Type to find a screen, an action or a record, then press Enter.
          </DialogPrimitive.Description>
          <Command label="Command palette" loop>
            <Command.Input
              placeholder="Type a screen, an action, an email or a name…"
              className="h-12 w-full border-b border-slate-200 px-4 text-sm outline-none"
            />
            <Command.List className="max-h-[60vh] overflow-y-auto p-2">
              <Command.Empty className="px-3 py-6 text-center text-sm text-slate-600">No match.</Command.Empty>
              <Command.Group heading="Screens" className={groupClass}>
                {screens.map((r) => (
                  <Command.Item key={r.path} value={`screen ${r.title}`} keywords={[r.path]} onSelect={() => go(r.path)} className={itemClass}>
                    {r.title}
                    <span className="text-xs text-slate-500">{r.path}</span>
                  </Command.Item>
                ))}
              </Command.Group>
              <Command.Group heading="Actions" className={groupClass}>
                {actions.map((r) => (
                  <Command.Item
                    key={r.path}
                    value={`action ${r.title}`}
                    disabled={!online}
                    onSelect={() => go(r.path)}
                    className={itemClass}
                  >
                    {r.title}
                    {online ? null : <span className="text-xs text-amber-800">Needs a connection</span>}
                  </Command.Item>
                ))}
                <Command.Item value="action Logout" onSelect={() => (onOpenChange(false), logout())} className={itemClass}>
                  Logout
                </Command.Item>
              </Command.Group>
              {records.map((group) => (
                <Command.Group key={group.heading} heading={group.heading} className={groupClass}>
                  {group.items.map((record) => (
                    <Command.Item
                      key={record.id}
                      value={`${group.heading} ${record.label} ${record.id}`}
                      keywords={[record.detail]}
                      onSelect={() => go(record.href)}
                      className={itemClass}
                    >
                      <span className="truncate">{record.label}</span>
                      <span className="truncate text-xs text-slate-500">{record.detail}</span>
                    </Command.Item>
                  ))}
                </Command.Group>
              ))}
            </Command.List>
            {online || actions.length === 0 ? null : (
              <p className="border-t border-slate-200 px-4 py-2 text-xs text-amber-900">{WRITES_OFFLINE_MESSAGE}</p>
            )}
          </Command>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  )
}
