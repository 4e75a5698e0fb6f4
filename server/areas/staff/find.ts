/** The palette's search of staff (the sub-admins Users and Access lists) by name and email. */
import { and, eq } from 'drizzle-orm'
import { admins } from '../../db/schema.ts'
import { defineFinder } from '../../kit/ground/finders.ts'
import { matching } from '../../kit/request/record-search.ts'

export const staffFinders = [
  defineFinder({
    screen: '/sub-admin',
    heading: 'Users and Access',
    find: async (db, match, limit) =>
      (
        await db
          .select({ id: admins.id, name: admins.name, email: admins.email, level: admins.accessLevel })
          .from(admins)
          .where(and(eq(admins.role, 'subadmin'), matching(match, admins.id, [admins.name, admins.email])))
          .limit(limit)
      ).map((a) => ({ id: a.id, label: a.name, detail: `${a.email}, ${a.level}`, search: a.email })),
  }),
]
