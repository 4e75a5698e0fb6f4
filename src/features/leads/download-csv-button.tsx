import { DownloadFile } from '#contract/leads'
import { DownloadButton } from '#src/crud/download-button.tsx'

/** Spec: "A Download CSV button", saving every lead as user.csv. */
export function DownloadCsvButton() {
  return <DownloadButton endpoint={DownloadFile} filename="user.csv" label="Download CSV" />
}
