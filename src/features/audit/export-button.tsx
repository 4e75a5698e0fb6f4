import { useState } from 'react'
import { useSearch } from 'wouter'
import { exportAudit } from '#contract/audit'
import { download } from '#src/lib/api.ts'
import { toast } from '#src/ui/toast.ts'
import { Button } from '#src/ui/button.tsx'

/** Downloads the log as the screen filters it (the URL holds the filters and the search). */
export function ExportAuditButton() {
  const search = useSearch()
  const [busy, setBusy] = useState(false)
  async function save() {
    const params = new URLSearchParams(search)
    const pick = (name: string) => params.get(name) ?? ''
    setBusy(true)
    try {
      await download(exportAudit, 'audit-log.csv', { admin: pick('admin'), area: pick('area'), action: pick('action'), from: pick('from'), to: pick('to'), search: pick('search') })
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The download failed.')
    } finally {
      setBusy(false)
    }
  }
  return (
    <Button variant="outline" onClick={() => void save()} disabled={busy} aria-busy={busy}>
      {busy ? 'Downloading…' : 'Export CSV'}
    </Button>
  )
}
