/**
 * Suppressed addresses (/suppressed-addresses): the addresses no mass send reaches, newest first,
 * with why (a bounce, a complaint, or a manual entry), when and where from (the provider's event
 * id, 'smtp' for a refusal at send time, or the admin who added it). Searched, sorted and paged by
 * the server; an Admin adds an address (/add-suppressed-address) or takes one off the list.
 */
import { addSuppressedAddress, listSuppressedAddresses, removeSuppressedAddress } from '#contract/suppression'
import { col, date, mono, type CustomColumn } from '#src/crud/list/columns.tsx'
import { defineForm } from '#src/crud/form/define-form.tsx'
import { defineList } from '#src/crud/list/define-list.tsx'
import type { SuppressedAddress } from '#contract/suppression'
import { email } from '#src/crud/form/form-fields.ts'

/** The reasons as staff read them. */
const REASON_LABELS: Record<SuppressedAddress['reason'], string> = { bounce: 'Bounce', complaint: 'Complaint', manual: 'Manual' }

const reason: CustomColumn<SuppressedAddress> = { header: 'Reason', sortBy: 'reason', cell: (row) => REASON_LABELS[row.reason] }

export const REMOVE_SUPPRESSION = 'Take this address off the list? Mass sends will reach it again.'

export const SuppressedAddressesPage = defineList({
  title: 'Suppressed addresses',
  empty: { says: 'No address is left out of mass sends yet: bounces and complaints add theirs here by themselves.', addFirst: 'Suppress an address' },
  about: 'Mass sends leave these addresses out: their mail bounced for good, their reader complained, or an admin added them.',
  route: '/suppressed-addresses',
  endpoint: listSuppressedAddresses,
  columns: [col('address', 'Address'), reason, date('createdAt', 'When'), mono('source', 'Source')],
  add: { to: '/add-suppressed-address', label: 'Add Address' },
  remove: { endpoint: removeSuppressedAddress, confirm: REMOVE_SUPPRESSION, payload: (row) => ({ address: row.address }) },
})

export const AddSuppressedAddressPage = defineForm({
  title: 'Add Suppressed Address',
  endpoint: addSuppressedAddress,
  fields: [email('address', 'Email Address')],
  done: '/suppressed-addresses',
})
