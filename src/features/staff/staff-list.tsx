import { sendPasswordLink } from '#contract/access-requests'
import { ActivateSubadminStatusUpdate, FetchSubAdminUsers, removeStaffPasskeys, signOutStaff, startViewAs, unlockAdmin } from '#contract/staff'
import { keepViewAs } from '#src/lib/view-as.ts'
import { col, serial } from '#src/crud/list/columns.tsx'
import { defineList } from '#src/crud/list/define-list.tsx'
import { staffBulk } from '#contract/bulk'
import { accessLabel, managesStaff } from './access.ts'

/**
 * Users and Access (/sub-admin, requirements R2.27). Add, edit and the Active/DeActive toggle are for
 * Admin access with a role other than subadmin; nobody edits or deactivates the superadmin.
 * Deactivating ends that admin's sessions at once on the server (the LOGOUT event). Unlock lifts
 * the sign-in locks of the row's email (failed logins or codes from some address). Sign out
 * everywhere ends every session of the row's admin on the server (each device gets LOGOUT).
 * Remove passkeys removes every passkey of the row's admin, which neither a password reset nor
 * signing out ends (a lost device's passkey would still sign in).
 * Send password link, for a member approved from an access request who has not set a password yet,
 * mails a new set-password link (the last one stops working).
 */
/** The state the switch asks for: the opposite of the row's. */
const wantedState = (activate: number): 0 | 1 => (activate === 1 ? 0 : 1)

export const StaffListPage = defineList({
  title: 'Users and Access',
  empty: { says: 'Staff accounts and the screens each may read or change.', addFirst: 'Create the first staff account' },
  endpoint: FetchSubAdminUsers,
  columns: [
    serial(),
    col('name', 'Name'),
    col('email', 'Email'),
    col('accessLevel', 'User Type'),
    // '--' means every page (empty restrictions), whatever the user type: a restricted user never shows it.
    { header: 'Access', cell: (row) => accessLabel(row.restrictions) },
  ],
  add: { to: '/add-subAdmin', label: 'Add' },
  edit: '/edit-subAdmin',
  serverBulk: staffBulk,
  // Requirements R4.6: activate 1 is active; the toggle flips it and the list reloads.
  toggle: {
    kind: 'switch',
    name: 'Active',
    endpoint: ActivateSubadminStatusUpdate,
    // The state wanted, not a flip: a retried request then cannot undo the change.
    payload: (row) => ({ id: row._id, activate: wantedState(row.activate) }),
    isOn: (row) => row.activate === 1,
    label: (row) => (row.activate === 1 ? 'Active' : 'DeActive'),
  },
  actions: [
    {
      label: 'Send password link',
      endpoint: sendPasswordLink,
      when: (row) => row.setupPending,
      confirm: () => 'Are you sure you want to send a password link to this user',
      detail: (row) => `A new link to set their password is mailed to ${row.email}; it works once, for 72 hours, and the last link stops working.`,
      choices: [{ label: 'Send password link', payload: (row) => ({ id: row._id }) }],
    },
    {
      label: 'Unlock',
      endpoint: unlockAdmin,
      confirm: () => 'Are you sure you want to unlock this account',
      detail: (row) => `Failed logins no longer block ${row.email}: they can log in again at once, from anywhere.`,
      choices: [{ label: 'Unlock', payload: (row) => ({ id: row._id }) }],
    },
    {
      label: 'Sign out everywhere',
      endpoint: signOutStaff,
      confirm: () => 'Are you sure you want to sign this user out everywhere',
      detail: (row) => `Every session of ${row.email} ends at once, on every device. They can log in again.`,
      choices: [{ label: 'Sign out everywhere', payload: (row) => ({ id: row._id }) }],
    },
    {
      // View as (contract/staff.ts): the superadmin alone, never on another superadmin (the row is not writable).
      label: 'View as',
      endpoint: startViewAs,
      when: (_row, session) => session.signedInSuperadmin && session.viewAs === null,
      confirm: (row) => `View the back office as ${row.name}`,
      detail: (row) =>
        `You see the menu and screens ${row.name} sees (${row.accessLevel}), read only: nothing can be changed until you choose Back to my view. The start and the end are kept in the audit log.`,
      choices: [{ label: 'View as', payload: (row) => ({ id: row._id }) }],
      afterSuccess: (row) =>
        keepViewAs({ _id: row._id, name: row.name, email: row.email, role: row.role, accessLevel: row.accessLevel, restrictions: row.restrictions }, ''),
    },
    {
      label: 'Remove passkeys',
      endpoint: removeStaffPasskeys,
      confirm: () => "Are you sure you want to remove this user's passkeys",
      detail: (row) => `Every passkey of ${row.email} is removed: they log in with their password until they add a new one on Profile.`,
      choices: [{ label: 'Remove passkeys', payload: (row) => ({ id: row._id }) }],
    },
  ],
  writeRule: managesStaff,
  writable: (row) => row.role !== 'superadmin',
})
