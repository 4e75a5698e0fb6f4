import { useState } from 'react'
import type { Endpoint, Input } from '#contract/define'
import { download } from '#src/lib/api.ts'
import { toast } from '#src/ui/toast.ts'
import { Button, type ButtonProps } from '#src/ui/button.tsx'

/** A list's file download (the leads' CSV, the audit log's): busy while it streams, a toast if it fails. */
export function DownloadButton<E extends Endpoint>({
  endpoint,
  filename,
  label,
  input,
  disabled = false,
  size,
}: {
  endpoint: E
  filename: string
  label: string
  input?: Input<E>
  disabled?: boolean
  /** Smaller inside a bar of small buttons (the selection bar). */
  size?: ButtonProps['size']
}) {
  const [busy, setBusy] = useState(false)
  async function save() {
    setBusy(true)
    try {
      await download(endpoint, filename, input)
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'The download failed.')
    } finally {
      setBusy(false)
    }
  }
  return (
    <Button variant="outline" size={size} onClick={() => void save()} disabled={busy || disabled} aria-busy={busy}>
      {busy ? 'Downloading…' : label}
    </Button>
  )
}
