import { useSearch } from 'wouter'
import { exportAudit } from '#contract/audit'
import { DownloadButton } from '#src/crud/list/download-button.tsx'

/** Downloads the log as the screen filters it (the URL holds the filters and the search). */
export function ExportAuditButton() {
  const params = new URLSearchParams(useSearch())
  const pick = (name: string) => params.get(name) ?? ''
  const input = { admin: pick('admin'), area: pick('area'), action: pick('action'), from: pick('from'), to: pick('to'), search: pick('search') }
  return <DownloadButton endpoint={exportAudit} filename="audit-log.csv" label="Export CSV" input={input} />
}
