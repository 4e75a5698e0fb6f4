import { getContactUS } from '#contract/leads'
import { col, field } from '#src/crud/columns.tsx'
import { defineList } from '#src/crud/define-list.tsx'

/** Contact Us enquiries (/contactus): spec section 2. */
export const ContactPage = defineList({
  title: 'Contact Us',
  endpoint: getContactUS,
  columns: [
    col('name', 'Name'),
    col('email', 'Email'),
    // Messages can be long: the list shows two lines, the View modal the whole text.
    { header: 'Message', cell: (row) => <span className="line-clamp-2 max-w-md break-words">{row.message}</span> },
  ],
  view: {
    title: 'Contact Details',
    fields: [field('name', 'Name'), field('phonenumber', 'Contact Number'), field('message', 'Message')],
  },
})
