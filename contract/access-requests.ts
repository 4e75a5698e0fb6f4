import { z } from 'zod/mini'
import { Done, Id, PageQuery, ok, pageOf, sortable } from './common.ts'
import { endpoint, nameEndpoints, publicAccess, staffReads, staffWrites } from './define.ts'
import { ConfirmPassword, CONFIRM_MISMATCH } from './password.ts'
import { TwoFACode } from './auth.ts'
import { StaffEmail, StaffName, StaffPassword, editUserFields, editUserRule } from './staff.ts'
import * as self from './access-requests.ts'

/*
 * The register screen of requirements R2.5 (/register: name, email, password, confirm password) as an access
 * request, never an open sign-up: the server stores the request (password hashed with the Create
 * User policy) and mails a confirmation link to its address; once the link is opened, a
 * superadmin approves it (choosing the user type and access, as Edit User does) or declines it.
 * Staff never see a request whose mailbox was not proved, so nobody can ask for access in a
 * colleague's name. Until approved, the credentials log in nowhere. Messages are Create User's.
 */

/** One pending request, as Users and Access lists it (never the password); confirmed ones only. */
export const AccessRequest = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  createdAt: z.string(),
  /** When its address opened the mailed link. */
  confirmedAt: z.string(),
})
export type AccessRequest = z.output<typeof AccessRequest>

/**
 * The register form. The answer is the same whether or not the email is known (an admin's, or
 * another pending request's), so the form tells nobody which emails exist; rate limited per address.
 */
export const register = endpoint({
  logAs: 'Access requested',
  method: 'POST',
  input: z
    .object({ name: StaffName, email: StaffEmail, password: StaffPassword, confirmPassword: ConfirmPassword })
    // Compared only once both passwords parsed, so the mismatch never hides their own messages.
    .check(
      z.superRefine(
        (v, ctx) => {
          if (v.password !== v.confirmPassword) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: CONFIRM_MISMATCH })
        },
        { when: (payload) => !payload.issues.some((i) => i.path?.[0] === 'password' || i.path?.[0] === 'confirmPassword') },
      ),
    ),
  output: Done,
  access: publicAccess,
  ours: 'Payload from the register screen (requirements R2.5: name, email, password, confirm password); stores an access request, not an account.',
})

/** The confirmation link's secret, as the mail's link carries it (43 base64url characters). */
export const ConfirmToken = z.string().check(z.trim(), z.minLength(1, 'This confirmation link is not valid'), z.maxLength(200, 'This confirmation link is not valid'))

/**
 * The link mailed to a request's address, opened on the public page /confirm-request?token=...:
 * its button posts here. The request becomes visible to staff managers. Single-use: a link used
 * once, replaced by a newer request for the address, or older than its 24 hours does nothing.
 */
export const confirmAccessRequest = endpoint({
  logAs: 'Access request confirmed',
  method: 'POST',
  input: z.object({ token: ConfirmToken }),
  output: Done,
  access: publicAccess,
  ours: 'Not in the requirements: confirms the address of an access request from the link mailed to it.',
})

/** Confirmed pending requests, newest first; superadmin (staff management) only. */
export const accessRequestSort = sortable(['name', 'email', 'createdAt', 'confirmedAt'], { by: 'createdAt', order: 'desc' })

export const listAccessRequests = endpoint({
  method: 'GET',
  input: z.extend(PageQuery, accessRequestSort.input),
  output: pageOf(AccessRequest),
  access: staffReads('/sub-admin'),
  sort: accessRequestSort,
  ours: `Not in the requirements: the pending access requests of /register, shown in Users and Access. ${accessRequestSort.note}`,
})

/** One pending request, for the approval form opened by URL (a reload, a shared link). */
export const getAccessRequest = endpoint({
  method: 'GET',
  input: z.object({ id: Id }),
  output: ok({ data: AccessRequest }),
  access: staffReads('/sub-admin'),
  ours: 'Not in the requirements: the get-one read of a pending access request.',
})

/**
 * Approves a request with the user type and access chosen on Edit User: the admin is created
 * (role subadmin, the requested name and email) and active; the request is removed. It makes
 * staff as Create User does, so it asks what Create User asks: a recent proof of the session's
 * owner (`stepUp`) and, when the approver has 2FA enabled, their current code (status TWO_FA
 * until `twoFACode` carries it).
 */
export const approveAccessRequest = endpoint({
  logAs: 'Access request approved',
  method: 'POST',
  input: z.object({ ...editUserFields, twoFACode: TwoFACode }).check(editUserRule()),
  // status TWO_FA is the other non-failure answer; see TwoFactorNeeded in common.ts.
  output: Done,
  access: staffWrites('/sub-admin'),
  stepUp: true,
  ours: 'Not in the requirements: Edit User fields; _id is the request id; twoFACode for an approver with 2FA enabled.',
})

/** Declines a request: it is deleted. */
export const declineAccessRequest = endpoint({
  logAs: 'Access request declined',
  method: 'POST',
  input: z.object({ id: Id }),
  output: Done,
  access: staffWrites('/sub-admin'),
  ours: 'Not in the requirements: declines a pending access request.',
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
