import { accessLevels, createSubAdminUsers, FetchSubAdminUsers, SubAdmin, UpdateSubAdminUsers } from '#contract/staff'
import { defineForm } from '#src/crud/define-form.tsx'
import { email, multiSelect, password, select, text } from '#src/crud/form-fields.ts'
import { accessOptions, managesStaff, normalizeAccess, withAlwaysAllowed } from './access.ts'

const userTypes = accessLevels.map((level) => ({ value: level, label: level }))

const paths = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [])

/** Choosing a user type or a page re-applies the child-page rule to the access list. */
function keepAccessInStep(changed: string, values: Record<string, unknown>): Record<string, unknown> {
  if (changed !== 'accessLevel' && changed !== 'restrictions') return {}
  return { restrictions: normalizeAccess(paths(values['restrictions']), values['accessLevel']) }
}

/**
 * Create User (/add-subAdmin). Access shows only while the user type is not Admin; what was
 * chosen before switching to Admin is kept (with its child pages, as the spec's rule says) and
 * shows again on switching back. A creator with 2FA enabled is asked for their code (TWO_FA).
 */
export const CreateStaffPage = defineForm({
  title: 'Create User',
  endpoint: createSubAdminUsers,
  fields: [
    text('name', 'Name', { autoComplete: 'off' }),
    email('email', 'Email', { autoComplete: 'off' }),
    password('password', 'Password', { autoComplete: 'new-password' }),
    select('accessLevel', 'User Type', userTypes),
    multiSelect('restrictions', 'Access', accessOptions('create'), { when: (v) => v['accessLevel'] !== 'Admin' }),
  ],
  done: '/sub-admin',
  writeRule: managesStaff,
  derive: keepAccessInStep,
})

/** Edit User (/edit-subAdmin): no password; a chosen access list always keeps Profile and Reset Password. */
export const EditStaffPage = defineForm({
  title: 'Edit User',
  endpoint: UpdateSubAdminUsers,
  fields: [
    text('name', 'Name', { autoComplete: 'off' }),
    email('email', 'Email', { autoComplete: 'off' }),
    select('accessLevel', 'User Type', userTypes),
    multiSelect('restrictions', 'Access', accessOptions('edit')),
  ],
  done: '/sub-admin',
  writeRule: managesStaff,
  derive: keepAccessInStep,
  prepare: (values) => ({ ...values, restrictions: withAlwaysAllowed(paths(values['restrictions'])) }),
  record: {
    list: FetchSubAdminUsers,
    schema: SubAdmin,
    values: (u) => ({ _id: u._id, name: u.name, email: u.email, accessLevel: u.accessLevel, restrictions: u.restrictions }),
  },
})
