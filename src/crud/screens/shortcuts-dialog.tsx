import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '#src/ui/dialog.tsx'
import { LIST_SHORTCUTS } from '../list/list-keys.ts'

/** The sheet of every keyboard shortcut (`?`, or the palette's Keyboard shortcuts). */
export function ShortcutsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Keyboard shortcuts</DialogTitle>
          <DialogDescription>On every list; keys typed into a field are left alone.</DialogDescription>
        </DialogHeader>
        <table className="text-sm">
          <caption className="sr-only">Keyboard shortcuts</caption>
          <thead>
            <tr className="text-left text-slate-600">
              <th scope="col" className="py-1 pr-4 font-semibold">
                Keys
              </th>
              <th scope="col" className="py-1 font-semibold">
                What they do
              </th>
            </tr>
          </thead>
          <tbody>
            {LIST_SHORTCUTS.map((s) => (
              <tr key={s.does} className="border-t border-slate-200">
                <td className="py-1.5 pr-4 whitespace-nowrap">
                  {s.keys.map((k, i) => (
                    <span key={k}>
                      {i > 0 ? <span className="px-1 text-slate-600">{s.keys[0] === 'Ctrl' ? '+' : 'or'}</span> : null}
                      <kbd className="rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 font-mono text-xs text-slate-900">{k}</kbd>
                    </span>
                  ))}
                </td>
                <td className="py-1.5 text-slate-900">{s.does}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </DialogContent>
    </Dialog>
  )
}
