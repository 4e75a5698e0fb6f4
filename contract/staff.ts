import { z } from 'zod/mini'
import { Done, EMAIL_PATTERN, ExpectedVersion, Id, PASSWORD_PATTERN, PageQuery, RecordVersion, integer, ok, pageOf, required, sortable } from './common.ts'
import { endpoint, nameEndpoints, reads, sessionAccess, staffWrites } from './define.ts'
import { TwoFACode } from './auth.ts'
import { screenPaths } from './routes.ts'
import * as self from './staff.ts'

export const accessLevels = ['Admin', 'View Only'] as const
export const AccessLevel = z.enum(accessLevels)
export type AccessLevel = z.output<typeof AccessLevel>

/**
 * Requirements R3.12, Sub-admin user (never the password). `activate` is 1 when active; the list
 * shows nothing for any other value.
 */
export const SubAdmin = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  accessLevel: AccessLevel,
  role: z.enum(['superadmin', 'subadmin']),
  restrictions: z.array(z.string()),
  activate: integer(),
  /** Ours: the edit version (common.ts, RECORD_CHANGED). */
  version: RecordVersion,
  /** Ours: true until the member sets a password from their mailed link (an approved access request). */
  setupPending: z.boolean(),
})
export type SubAdmin = z.output<typeof SubAdmin>

export const StaffName = required('Name is required', 100)
/** Create User's email rule (also the access request's). */
export const StaffEmail = z
  .string({ error: 'Email is required' })
  .check(z.trim(), z.minLength(1, 'Email is required'), z.maxLength(254, 'Incorrect format'), z.regex(EMAIL_PATTERN, 'Incorrect format'))
/** Create User's password policy (also the access request's). */
export const StaffPassword = z
  .string({ error: 'Password is required' })
  .check(z.minLength(1, 'Password is required'), z.regex(PASSWORD_PATTERN, 'Incorrect format'))

/** Restrictions name screens of the route table; anything else is refused. */
const RoutePath = z.string({ error: 'Incorrect format' }).check(z.refine((p) => screenPaths.includes(p), 'Incorrect format'))
const Restrictions = (message: string) => z._default(z.array(RoutePath, { error: message }).check(z.maxLength(100, 'Incorrect format')), [])

/**
 * Access is required unless the user type is Admin. The rule runs only once accessLevel and
 * restrictions parsed, so an empty user type shows its own message and not a second one, and the
 * message lands on `restrictions`, under the Access input.
 */
const restrictionsUnlessAdmin = (message: string) => ({
  check: (v: { accessLevel: AccessLevel; restrictions: string[] }, ctx: z.core.$RefinementCtx) => {
    if (v.accessLevel !== 'Admin' && v.restrictions.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['restrictions'], message })
    }
  },
  params: {
    // A body that is no object at all (an array, a string) has a root issue: `v` is then not the
    // object the check reads, and reading `restrictions.length` of it would throw (a 500).
    when: (payload: { issues: readonly { path?: readonly PropertyKey[] }[] }) =>
      !payload.issues.some((i) => i.path === undefined || i.path.length === 0 || i.path[0] === 'accessLevel' || i.path[0] === 'restrictions'),
  },
})

const createRule = restrictionsUnlessAdmin('Access is required')
/**
 * Create User. There is no `role` field: the server always creates role subadmin, so a client
 * cannot choose its own role (an extra `role` is dropped by the parse). When the creator has 2FA
 * enabled the answer is status TWO_FA until `twoFACode` carries their current code.
 */
export const CreateSubAdminInput = z
  .object({
    name: StaffName,
    email: StaffEmail,
    password: StaffPassword,
    accessLevel: z.enum(accessLevels, { error: 'User type is required' }),
    restrictions: Restrictions('Access is required'),
    twoFACode: TwoFACode,
  })
  .check(z.superRefine(createRule.check, createRule.params))

const updateRule = restrictionsUnlessAdmin('Restrictions is required')
/** Edit User's fields (also the approval of an access request, which adds the 2FA code). */
export const editUserFields = {
  _id: Id,
  name: StaffName,
  email: StaffEmail,
  accessLevel: z.enum(accessLevels, { error: 'AccessLevel is required' }),
  restrictions: Restrictions('Restrictions is required'),
  /** Ours: the version the form loaded (common.ts, RECORD_CHANGED). */
  version: ExpectedVersion,
}
/** Edit User's access rule, for a schema made of `editUserFields`. */
export const editUserRule = () => z.superRefine(updateRule.check, updateRule.params)
/** Edit User: no password; its own messages for the user type and the access list. */
export const UpdateSubAdminInput = z.object(editUserFields).check(editUserRule())

export const createSubAdminUsers = endpoint({
  logAs: 'User created',
  method: 'POST',
  input: CreateSubAdminInput,
  // status TWO_FA is the other non-failure answer; see TwoFactorNeeded in common.ts.
  output: Done,
  access: staffWrites('/sub-admin'),
  stepUp: true,
  ours: 'role is not accepted (always subadmin); twoFACode added for a creator with 2FA enabled.',
})

const staffSort = sortable(['name', 'email', 'accessLevel'])

export const FetchSubAdminUsers = endpoint({
  method: 'GET',
  input: z.extend(PageQuery, staffSort.input),
  output: pageOf(SubAdmin),
  access: reads('/sub-admin'),
  sort: staffSort,
  ours: staffSort.note,
})

/** One staff member by id, for Edit User opened by URL. */
export const getSubAdminUser = endpoint({
  method: 'GET',
  input: z.object({ _id: Id }),
  output: ok({ data: SubAdmin }),
  access: reads('/sub-admin'),
  ours: 'Not in the requirements: the get-one read of Edit User (the requirements pass the record in navigation state, R2.28).',
})

export const UpdateSubAdminUsers = endpoint({
  logAs: 'User edited',
  method: 'POST',
  input: UpdateSubAdminInput,
  output: Done,
  access: staffWrites('/sub-admin'),
  // Edit User sets the user type and the screens: a change of access asks for a recent proof.
  stepUp: true,
  ours: 'role and password are not accepted on edit.',
})

/**
 * Sets activate to the state asked for (`activate` 1 or 0), or flips it when none is given (the
 * plain toggle of requirements R4.6). Asking for the state makes a retried request harmless: a flip sent twice
 * would undo itself. Deactivating ends that admin's sessions at once. Activating gives a member
 * back their access, so the call is a step-up call; the contract cannot tell the two states apart
 * before the body is read, so deactivating asks for the same recent proof.
 */
export const ActivateSubadminStatusUpdate = endpoint({
  logAs: 'User activation switched',
  method: 'POST',
  input: z.object({ id: Id, activate: z.optional(z.union([z.literal(0), z.literal(1)], { error: 'Incorrect format' })) }),
  output: Done,
  access: staffWrites('/sub-admin'),
  stepUp: true,
  ours: 'activate (1 or 0, optional) added: the state wanted, so a retry does not undo the change.',
})


/** The answer of unlockAdmin. */
export const ACCOUNT_UNLOCKED = 'Account unlocked successfully'

/**
 * Lifts every sign-in lock of a staff member's email (each address's lock, the email's slow-down
 * and the day's one-time-code cap). Superadmin only, as every staff write: the
 * staff rule refuses role subadmin. Unlocking an account with no lock running changes nothing.
 * It lets guesses at that account's password start again, so it is a step-up call.
 */
export const unlockAdmin = endpoint({
  logAs: 'Account unlocked',
  method: 'POST',
  input: z.object({ id: Id }),
  output: Done,
  access: staffWrites('/sub-admin'),
  stepUp: true,
  ours: 'Not in the requirements: the superadmin lifts the sign-in locks of an account (the Unlock row action of Users and Access).',
})

export const SIGNED_OUT_EVERYWHERE = 'User signed out everywhere'

/**
 * Ends every session of a staff member (each device): their tokens answer 401 and their sockets
 * get LOGOUT. A staff manager's write (the superadmin today), never on the superadmin or on
 * someone holding more access than the caller.
 */
export const signOutStaff = endpoint({
  logAs: 'Signed out everywhere',
  method: 'POST',
  input: z.object({ id: Id }),
  output: Done,
  access: staffWrites('/sub-admin'),
  ours: 'Not in the requirements: Sign out everywhere, the row action of Users and Access.',
})

/**
 * Removes every passkey of a staff member: a passkey outlives a password reset and Sign out
 * everywhere, so a lost or stolen device's passkey would still sign in. A staff manager's write
 * with a recent proof, like Edit User, never on the superadmin or on someone holding more access.
 */
export const removeStaffPasskeys = endpoint({
  logAs: 'Passkeys removed',
  method: 'POST',
  input: z.object({ id: Id }),
  output: ok({ removed: integer() }),
  access: staffWrites('/sub-admin'),
  ours: "Not in the requirements: Remove passkeys, the row action of Users and Access; answers how many were removed (0 when the member had none).",
})

/**
 * View as: whom a superadmin's session is viewing the back office as, with that member's access
 * (what their menu, screens and lists follow while it lasts).
 */
export const ViewedMember = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(['superadmin', 'subadmin']),
  accessLevel: AccessLevel,
  restrictions: z.array(z.string()),
})
export type ViewedMember = z.output<typeof ViewedMember>

export const VIEW_AS_STARTED = 'Viewing as the staff member: read only'
export const VIEW_AS_ENDED = 'Back to your own view'
export const VIEW_AS_SELF = 'You cannot view as yourself'
export const VIEW_AS_SUPERADMIN = 'You cannot view as a superadmin'
export const NOT_VIEWING_AS = 'You are not viewing as anyone'
/** Code of the 403 a write gets while the session views as someone (the PWA shows the banner's way back). */
export const VIEW_AS_READ_ONLY = 'view-as-read-only'
export const viewAsReadOnly = (name: string): string => `Viewing as ${name} is read only: use Back to my view to make changes`

/**
 * Starts View as on this session: from now on the session reads as the staff member `id` would
 * (their menu, screens, lists and exports, their access checked by the server on every call) and
 * every write is refused (403) but `endViewAs` and Logout. Superadmin only (the staff rule), with
 * a recent proof like every staff access call; never as oneself or as a superadmin. The state is
 * the session's, on the server: it ends with `endViewAs`, Logout, or the session itself.
 */
export const startViewAs = endpoint({
  logAs: 'View as started',
  method: 'POST',
  input: z.object({ id: Id }),
  output: ok({ data: ViewedMember }),
  access: staffWrites('/sub-admin'),
  stepUp: true,
  ours: 'Not in the requirements: View as, the superadmin sees the back office as a staff member would, read only (Users and Access row action).',
})

/** Ends View as on this session: its own access again. 409 when the session is not viewing as anyone. */
export const endViewAs = endpoint({
  logAs: 'View as ended',
  method: 'POST',
  input: z.object({}),
  output: Done,
  access: sessionAccess,
  whileViewingAs: true,
  ours: 'Not in the requirements: Back to my view, the end of View as (the banner shown while it lasts).',
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
