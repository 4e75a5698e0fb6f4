import { contactBulk } from '#contract/bulk'
import { ENQUIRY_STATUSES, getContactUS, setContactStatus, type ContactRow, type EnquiryStatus } from '#contract/leads'
import { col, date, field, low, type CustomColumn } from '#src/crud/list/columns.tsx'
import { defineList } from '#src/crud/list/define-list.tsx'
import { CutText } from '#src/crud/list/cut-text.tsx'
import { listFilter } from '#src/crud/list/list-filters.tsx'
import { Link } from 'wouter'
import { Button } from '#src/ui/button.tsx'
import { Status } from './enquiry-status.tsx'

/** Beside the search: the way into the queue of open enquiries (triage-page.tsx). */
function TriageLink() {
  return (
    <Button variant="outline" asChild>
      <Link href="/contactus-triage">Triage</Link>
    </Button>
  )
}


const flipped = (status: EnquiryStatus): EnquiryStatus => (status === 'Open' ? 'Resolved' : 'Open')

/**
 * Contact Us enquiries (/contactus): requirements R2.11, newest first with when each arrived and its
 * status (ours), narrowed by status in the URL. An Admin marks an enquiry Resolved or opens it again.
 */
export const ContactPage = defineList({
  title: 'Contact Us',
  empty: { says: 'Enquiries users send through the Contact Us form arrive here, to be answered and resolved.' },
  route: '/contactus',
  endpoint: getContactUS,
  columns: [
    date('createdAt', 'Received'),
    col('name', 'Name'),
    col('email', 'Email'),
    // Messages can be long: the list shows two lines, the View modal the whole text (and, folded
    // away on a tablet so the status keeps its room, the only text).
    low<CustomColumn<ContactRow>>({ header: 'Message', cell: (row) => <CutText text={row.message} lines={2} /> }),
    { header: 'Status', cell: (row) => <Status status={row.status} /> },
  ],
  view: {
    title: 'Contact Details',
    fields: [field('name', 'Name'), field('phonenumber', 'Contact Number'), field('message', 'Message')],
  },
  toolbar: TriageLink,
  filters: [listFilter('status', 'Status', ENQUIRY_STATUSES.map((value) => ({ value, label: value })), 'All statuses')],
  toggle: {
    kind: 'button',
    endpoint: setContactStatus,
    payload: (row) => ({ _id: row._id, status: flipped(row.status) }),
    isOn: (row) => row.status === 'Resolved',
    label: (row) => (row.status === 'Open' ? 'Mark Resolved' : 'Reopen'),
  },
  serverBulk: contactBulk,
})
