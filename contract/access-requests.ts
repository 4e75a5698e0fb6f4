import { z } from 'zod/mini'
import { Done, Id, PageQuery, ok, pageOf, sortable } from './common.ts'
import { endpoint, nameEndpoints, publicAccess, staffReads, staffWrites } from './define.ts'
import { ConfirmPassword, CONFIRM_MISMATCH, NewPassword } from './password.ts'
import { TwoFACode } from './auth.ts'
import { StaffEmail, StaffName, editUserFields, editUserRule } from './staff.ts'
import * as self from './access-requests.ts'

/*
 * The register screen of requirements R2.5 (/register) as an access request, never an open
 * sign-up, and without a password: the server stores the request (name and email) and mails a
 * confirmation link to its address; once the link is opened, a superadmin approves it (choosing
 * the user type and access, as Edit User does) or declines it. The approved member has no
 * password until they set one from a single-use link mailed to the address: whoever typed the
 * address first never holds a secret of the account, so nobody can make a colleague confirm a
 * request whose password they chose. Messages are Create User's.
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
 * The register form: name and email only (the password is set after approval, from a mailed
 * link). The answer is the same whether or not the email is known (an admin's, or another
 * pending request's), so the form tells nobody which emails exist; rate limited per address.
 */
export const register = endpoint({
  logAs: 'Access requested',
  method: 'POST',
  input: z.object({ name: StaffName, email: StaffEmail }),
  output: Done,
  access: publicAccess,
  ours: 'Payload from the register screen (requirements R2.5) without its password fields: name and email; stores an access request, not an account.',
})

/** The confirmation link's secret, as the mail's link carries it (43 base64url characters). */
export const ConfirmToken = z.string().check(z.trim(), z.minLength(1, 'This confirmation link is not valid'), z.maxLength(200, 'This confirmation link is not valid'))

/** What the confirmation page shows before its button: whose request, for which address, made when. */
export const RequestToConfirm = z.object({ name: z.string(), email: z.string(), createdAt: z.string() })
export type RequestToConfirm = z.output<typeof RequestToConfirm>

/**
 * The request a confirmation link belongs to, read by the page before it offers its button (a
 * GET confirms nothing). A link that was replaced, used or has expired answers as confirming would.
 */
export const getRequestToConfirm = endpoint({
  method: 'GET',
  input: z.object({ token: ConfirmToken }),
  output: ok({ data: RequestToConfirm }),
  access: publicAccess,
  ours: 'Not in the requirements: the name, address and time of the request a confirmation link confirms.',
})

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
 * (role subadmin, the requested name and email, no password) and active; the request is removed,
 * and a set-password link is mailed to the address. It makes
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

/** The set-password link's secret, as the mail's link carries it. */
export const SetupToken = z.string().check(z.trim(), z.minLength(1, 'This link is not valid'), z.maxLength(200, 'This link is not valid'))

/**
 * The public page /set-password?token=... (mailed to an approved member with no password yet):
 * its button sets the first password, with Forgot Password's rules. Single-use: a link used
 * once, replaced by a newer one or older than its hours does nothing.
 */
export const setFirstPassword = endpoint({
  logAs: 'Password set from the mailed link',
  method: 'POST',
  input: z
    .object({ token: SetupToken, newPassword: NewPassword, confirmPassword: ConfirmPassword })
    // Compared only once both passwords parsed, so the mismatch never hides their own messages.
    .check(
      z.superRefine(
        (v, ctx) => {
          if (v.newPassword !== v.confirmPassword) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: CONFIRM_MISMATCH })
        },
        { when: (payload) => !payload.issues.some((i) => i.path?.[0] === 'newPassword' || i.path?.[0] === 'confirmPassword') },
      ),
    ),
  output: Done,
  access: publicAccess,
  ours: 'Not in the requirements: sets the first password of an approved member from the link mailed to them.',
})

/**
 * Send password link (a row action of Users and Access) for a member who has no password yet:
 * a new set-password link is mailed to their address and the last one stops working. It opens
 * an account to sign-in, so it is a step-up call.
 */
export const sendPasswordLink = endpoint({
  logAs: 'Password link sent',
  method: 'POST',
  input: z.object({ id: Id }),
  output: Done,
  access: staffWrites('/sub-admin'),
  stepUp: true,
  ours: 'Not in the requirements: mails a new set-password link to a member who has no password yet.',
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
