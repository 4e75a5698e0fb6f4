/** The palette's search of leads (email, name, wallet address, as the list searches) and contact enquiries. */
import { contactEnquiries, leads } from '../../db/schema.ts'
import { defineFinder } from '../../kit/ground/finders.ts'
import { matching } from '../../kit/request/record-search.ts'
import { leadSearch } from '../../kit/rules/leads-search.ts'

export const leadFinders = [
  defineFinder({
    screen: '/users',
    heading: 'Leads',
    page: '/lead',
    find: async (db, match, limit) =>
      (await db.select({ id: leads.id, email: leads.email, name: leads.name }).from(leads).where(matching(match, leads.id, leadSearch)).limit(limit)).map((l) => ({ id: l.id, label: l.email, detail: l.name, search: l.email })),
  }),
  defineFinder({
    screen: '/contactus',
    heading: 'Contact Us',
    find: async (db, match, limit) =>
      (await db.select({ id: contactEnquiries.id, email: contactEnquiries.email, name: contactEnquiries.name }).from(contactEnquiries).where(matching(match, contactEnquiries.id, [contactEnquiries.name, contactEnquiries.email])).limit(limit)).map((c) => ({
        id: c.id,
        label: c.email,
        detail: c.name,
        search: c.email,
      })),
  }),
]
