import { providers } from '#contract/common'
import { Link } from 'wouter'
import { LEADS_PAGE_SIZE, LEAD_OPERATING_SYSTEMS, getuser, getuserCount, type Lead } from '#contract/leads'
import { col, date, field, low, mono, withEmpty } from '#src/crud/list/columns.tsx'
import { defineList } from '#src/crud/list/define-list.tsx'
import { CutText } from '#src/crud/list/cut-text.tsx'
import { optionsFrom } from '#src/crud/form/fields/options-source.ts'
import { dateFilter, listFilter } from '#src/crud/list/list-filters.tsx'
import { listCountry } from '#contract/restrictions'
import { DownloadCsvButton } from './download-csv-button.tsx'
import { LeadSelectionActions } from './lead-selection.tsx'

const asOptions = (values: readonly string[]) => values.map((value) => ({ value, label: value }))

/** The countries as listCountry names them: the names the server stores leads' countries under. */
const countries = optionsFrom(listCountry, {}, (answer) => asOptions(answer.result))

/**
 * Leads (/users): requirements R2.10, 50 per page (R9.1), sorted by its headers, narrowed by
 * provider, operating system and the days created (the admin's own days), all in the URL. The
 * rows come first; a count that takes a while follows (the pager says "counting…" meanwhile).
 */
export const LeadsPage = defineList({
  title: 'Leads',
  empty: { says: 'Everyone who signs up on the platform appears here, with their wallet and country.' },
  endpoint: getuser,
  // A broad search of a million leads shows its rows at once and its count when counted.
  count: getuserCount,
  pageSize: LEADS_PAGE_SIZE,
  columns: [
    date('createdAt', 'Date Created'),
    col('name', 'Name'),
    // The email opens the lead's own page (lead-page.tsx); View keeps the modal of requirements R2.10.
    { header: 'Email', sortBy: 'email', cell: (lead: Lead) => (
        <CutText text={lead.email}>
          <Link className="font-medium text-indigo-700 underline-offset-2 hover:underline" href={`/lead?id=${encodeURIComponent(lead._id)}`}>
            {lead.email}
          </Link>
        </CutText>
      ),
    },
    // Folded away on a tablet; the view modal then shows them.
    low(col('operatingsystem', 'Operating System')),
    low(mono('walletaddress', 'Wallet Address')),
    // Ours, beside the columns of requirements R2.10: what staff most often narrow leads by.
    low(col('provider', 'Provider')),
    low(withEmpty(col('country', 'Country'), '--')),
  ],
  view: {
    title: 'User Details',
    fields: [field('name', 'Name'), field('email', 'Email'), field('provider', 'Provider'), field('walletaddress', 'Wallet Address', 'mono')],
  },
  filters: [
    listFilter('provider', 'Provider', asOptions(providers), 'All providers'),
    listFilter('operatingsystem', 'Operating System', asOptions(LEAD_OPERATING_SYSTEMS), 'All systems'),
    listFilter('country', 'Country', countries, 'All countries'),
    dateFilter('from', 'Created from', { zoned: true }),
    dateFilter('to', 'Created to', { zoned: true }),
  ],
  toolbar: DownloadCsvButton,
  selectionActions: LeadSelectionActions,
})
