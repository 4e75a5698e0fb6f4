import { DownloadFile } from '#contract/leads'
import { DownloadButton } from '#src/crud/list/download-button.tsx'
import type { ToolbarProps } from '#src/crud/list/list-types.ts'

/** "Download 1,234 rows": the rows a narrowed list shows, counted as the list counts them. */
export const rowsLabel = (count: number | undefined): string =>
  count === undefined ? 'Download rows' : `Download ${count.toLocaleString('en-US')} ${count === 1 ? 'row' : 'rows'}`

/** DownloadFile's input for the list's search, filters and order (the rows the list shows). */
function exportInput(query: ToolbarProps['query'], filters: ToolbarProps['filters']): Record<string, string> {
  const input: Record<string, string> = {}
  if (query.search !== '') input['search'] = query.search
  for (const [name, value] of Object.entries(filters)) if (value !== '') input[name] = value
  if (query.sort) {
    input['sortBy'] = query.sort.by
    input['sortOrder'] = query.sort.order
  }
  return input
}

/**
 * The Download CSV button of requirements R2.10, saving every lead as user.csv (R7.3). Once a search or a filter narrows
 * the list, it saves exactly the rows the list shows (all of them, in its order) and says how many;
 * a sort alone still saves every lead, in that order.
 */
export function DownloadCsvButton({ query, filters, narrowed, count }: ToolbarProps) {
  const input = exportInput(query, filters)
  return (
    <DownloadButton endpoint={DownloadFile} filename="user.csv" label={narrowed ? rowsLabel(count) : 'Download CSV'} input={input} disabled={narrowed && count === 0} />
  )
}

/**
 * "Export the selection": every lead matching the list's search and filters (the selection kept
 * as those, never as ids), streamed as user.csv by the same call, in the list's order.
 */
export function ExportSelectionButton({ query, filters, count }: ToolbarProps) {
  const input = exportInput(query, filters)
  return <DownloadButton endpoint={DownloadFile} filename="user.csv" label="Export the selection" input={input} disabled={count === 0} size="sm" />
}
