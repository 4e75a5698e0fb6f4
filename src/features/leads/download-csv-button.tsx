import { useState } from 'react'
import { DownloadFile } from '#contract/leads'
import { download } from '#src/lib/api.ts'
import { toast } from '#src/ui/toast.ts'
import { Button } from '#src/ui/button.tsx'

/** Spec: "A Download CSV button", saving every lead as user.csv. */
export function DownloadCsvButton() {
  const [busy, setBusy] = useState(false)
  async function save() {
    setBusy(true)
    try {
      await download(DownloadFile, 'user.csv')
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The download failed.')
    } finally {
      setBusy(false)
    }
  }
  return (
    <Button variant="outline" onClick={() => void save()} disabled={busy} aria-busy={busy}>
      {busy ? 'Downloading…' : 'Download CSV'}
    </Button>
  )
}
