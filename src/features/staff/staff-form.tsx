import { accessLevels, createSubAdminUsers, getSubAdminUser, SubAdmin, UpdateSubAdminUsers } from '#contract/staff'
import { defineForm } from '#src/crud/form/define-form.tsx'
import { email, multiSelect, password, select, text } from '#src/crud/form/form-fields.ts'
import type { Values } from '#src/crud/form/form-fields.ts'
import { accessChanges, accessOptions, accessToSend, grantWords, managesStaff, normalizeAccess, type AccessChange } from './access.ts'

export const userTypes = accessLevels.map((level) => ({ value: level, label: level }))

export const paths = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [])

/** Choosing a user type or a page re-applies the child-page rule to the access list. */
export function keepAccessInStep(changed: string, values: Record<string, unknown>): Record<string, unknown> {
  if (changed !== 'accessLevel' && changed !== 'restrictions') return {}
  return { restrictions: normalizeAccess(paths(values['restrictions']), values['accessLevel']) }
}

/** Access shows only while the user type is not Admin (requirements R2.28). */
export const notAdmin = (values: Record<string, unknown>): boolean => values['accessLevel'] !== 'Admin'

/**
 * Create User (/add-subAdmin). Access shows only while the user type is not Admin, and an Admin
 * is sent with every page (`restrictions: []`, '--' in the list): pages chosen before switching
 * to Admin stay in the form, so they show again on switching back, but are never sent for an
 * Admin. A creator with 2FA enabled is asked for their code (TWO_FA).
 */
export const CreateStaffPage = defineForm({
  title: 'Create User',
  endpoint: createSubAdminUsers,
  fields: [
    text('name', 'Name', { autoComplete: 'off' }),
    email('email', 'Email', { autoComplete: 'off' }),
    password('password', 'Password', { autoComplete: 'new-password' }),
    select('accessLevel', 'User Type', userTypes),
    multiSelect('restrictions', 'Access', accessOptions('create'), { when: notAdmin }),
  ],
  done: '/sub-admin',
  writeRule: managesStaff,
  derive: keepAccessInStep,
  prepare: (values) => ({ ...values, restrictions: accessToSend(values['accessLevel'], paths(values['restrictions']), 'create') }),
  summary: ({ values }) => <AccessChanges values={values} start={null} />,
})

/**
 * Edit User (/edit-subAdmin): no password; Access as on Create User (hidden for Admin, who is
 * sent with every page); a chosen access list always keeps Profile and Reset Password.
 */
export const EditStaffPage = defineForm({
  title: 'Edit User',
  endpoint: UpdateSubAdminUsers,
  fields: [
    text('name', 'Name', { autoComplete: 'off' }),
    email('email', 'Email', { autoComplete: 'off' }),
    select('accessLevel', 'User Type', userTypes),
    multiSelect('restrictions', 'Access', accessOptions('edit'), { when: notAdmin }),
  ],
  done: '/sub-admin',
  writeRule: managesStaff,
  derive: keepAccessInStep,
  prepare: (values) => ({ ...values, restrictions: accessToSend(values['accessLevel'], paths(values['restrictions']), 'edit') }),
  summary: ({ values, start }) => <AccessChanges values={values} start={start} />,
  record: {
    get: getSubAdminUser,
    input: (id) => ({ _id: id }),
    pick: (answer) => answer.data,
    schema: SubAdmin,
    values: (u) => ({ _id: u._id, name: u.name, email: u.email, accessLevel: u.accessLevel, restrictions: u.restrictions, version: u.version }),
  },
})

/** Before Create User saves: no account, so no access on any page. */
const NO_ACCOUNT = { accessLevel: null, restrictions: [] }

/** One side of the change: each page with what it was and what it becomes. */
function ChangeList({ title, changes }: { title: string; changes: readonly AccessChange[] }) {
  if (changes.length === 0) return null
  return (
    <div>
      <p className="font-medium text-slate-900">{title}</p>
      <ul className="list-inside list-disc">
        {changes.map((c) => (
          <li key={c.page}>
            {c.page}: {grantWords(c.before)} → {grantWords(c.after)}
          </li>
        ))}
      </ul>
    </div>
  )
}

/**
 * Before saving, what the staff member will gain and lose (each page, read or write): on Edit
 * User from the access the form started with to the access it would send; on Create User (no
 * start: nothing yet) all they will get, which shows that View Only with no page chosen reads
 * every page.
 */
function AccessChanges({ values, start }: { values: Values; start: Values | null }) {
  const form = start === null ? 'create' : 'edit'
  const before = start === null ? NO_ACCOUNT : { accessLevel: start['accessLevel'], restrictions: paths(start['restrictions']) }
  const after = { accessLevel: values['accessLevel'], restrictions: accessToSend(values['accessLevel'], paths(values['restrictions']), form) }
  const { gains, losses } = accessChanges(before, after)
  return (
    <section aria-label="Access changes" aria-live="polite" className="flex flex-col gap-2 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
      {gains.length === 0 && losses.length === 0 ? (
        <p>{form === 'create' ? 'Saving gives no access yet: choose a user type.' : 'Saving changes no access.'}</p>
      ) : (
        <>
          <ChangeList title="Saving gives them" changes={gains} />
          <ChangeList title="Saving takes away" changes={losses} />
        </>
      )}
    </section>
  )
}
