/**
 * What the Leads' selection offers: "Export the selection" (CSV, for every reader) and "Promote to
 * these" (Add Promotion with exactly that audience, for staff who may write promotions).
 */
import { providers } from '#contract/common'
import { useLocation } from 'wouter'
import { BarAction, BarNote } from '#src/crud/list/selection-bar.tsx'
import type { SelectionActionsProps } from '#src/crud/list/list-types.ts'
import { useWriteAccess } from '#src/crud/writes/write-access.ts'
import { ADD_PROMOTION, handedState, type HandedAudience } from '#src/lib/handed-audience.ts'
import { ExportSelectionButton } from './download-csv-button.tsx'

/** The screen whose write access a promotion needs (contract/promotions.ts addNotification). */
const PROMOTIONS = '/notificationlist'

/** Said when every lead matching is chosen but the list is narrowed by what a promotion cannot choose by. */
export const NOT_A_PROMOTION_FILTER =
  'A promotion chooses leads by provider and country only: clear the search, the operating system and the dates, or tick the leads instead.'

const isProvider = (value: string) => providers.find((p) => p === value)

/**
 * The audience a promotion takes for this selection, or why it cannot: the leads ticked as they
 * are; every lead matching as the promotion's own filter, which holds the provider and the country
 * (the same names) but no search or other filter, since the promotion could not reach exactly those rows.
 */
export function promotionAudience({ filters, query, count, selection }: Pick<SelectionActionsProps, 'filters' | 'query' | 'count' | 'selection'>): HandedAudience | string {
  if (!selection.matching) return { from: 'Leads', count: selection.ids.length, narrowedBy: [], ids: [...selection.ids], selectall: false, filter: { email: '', provider: '', country: '' } }
  const other = ['operatingsystem', 'from', 'to'].some((name) => (filters[name] ?? '') !== '')
  if (query.search !== '' || other) return NOT_A_PROMOTION_FILTER
  const provider = isProvider(filters['provider'] ?? '') ?? ''
  const country = filters['country'] ?? ''
  const narrowedBy = [...(provider === '' ? [] : [`Provider: ${provider}`]), ...(country === '' ? [] : [`Country: ${country}`])]
  return { from: 'Leads', count: count ?? 0, narrowedBy, ids: [], selectall: true, filter: { email: '', provider, country } }
}

export function LeadSelectionActions(props: SelectionActionsProps) {
  const { selection, count } = props
  const promotions = useWriteAccess((session) => session.mayOpen(PROMOTIONS))
  const [, navigate] = useLocation()
  const audience = promotionAudience(props)
  return (
    <>
      {promotions.allowed ? (
        <BarAction
          label="Promote to these"
          disabled={selection.matching && !count}
          blockedReason={promotions.blockedReason ?? (typeof audience === 'string' ? audience : undefined)}
          onRun={() => {
            if (typeof audience !== 'string') navigate(ADD_PROMOTION, { state: handedState(audience) })
          }}
        />
      ) : null}
      {/* The export goes by the search and filters, never ids: it is offered once every row matching is chosen. */}
      {selection.matching ? <ExportSelectionButton {...props} /> : <BarNote>To export, select all matching.</BarNote>}
    </>
  )
}
