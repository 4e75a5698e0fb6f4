import { LEADS_PAGE_SIZE, getuser } from '#contract/leads'
import { col, date, field, low, mono } from '#src/crud/columns.tsx'
import { defineList } from '#src/crud/define-list.tsx'
import { DownloadCsvButton } from './download-csv-button.tsx'

/** Leads (/users): spec section 2, 50 per page (section 9). */
export const LeadsPage = defineList({
  title: 'Leads',
  endpoint: getuser,
  pageSize: LEADS_PAGE_SIZE,
  columns: [
    date('createdAt', 'Date Created'),
    col('name', 'Name'),
    col('email', 'Email'),
    // Folded away on a tablet; the view modal then shows them.
    low(col('operatingsystem', 'Operating System')),
    low(mono('walletaddress', 'Wallet Address')),
  ],
  view: {
    title: 'User Details',
    fields: [field('name', 'Name'), field('email', 'Email'), field('provider', 'Provider'), field('walletaddress', 'Wallet Address', 'mono')],
  },
  toolbar: DownloadCsvButton,
})
