/**
 * Approving an access request (`/edit-subAdmin?request=<id>`): Edit User for the request, with
 * Edit User's fields, messages and access rules, sent to approveAccessRequest. The server creates
 * the account (role subadmin, active, with no password), removes the request and mails the
 * address a link to set the password; the form then returns to Users and Access, where the new
 * user is listed. Approving makes staff as Create User does, so it asks the same proofs: a recent
 * one of the session's owner, and the approver's 2FA code when theirs is on.
 *
 * The email is shown but not editable: the confirmed address is the one the link goes to, and
 * the server refuses another one.
 */
import { approveAccessRequest, type AccessRequest } from '#contract/access-requests'
import { When } from '#src/crud/list/when.tsx'
import type { FormDef } from '#src/crud/form/define-form.tsx'
import { FormBody } from '#src/crud/form/form-body.tsx'
import { email, multiSelect, select, text } from '#src/crud/form/form-fields.ts'
import { FormFrame, ReadOnlyNotice, RecordUnloaded } from '#src/crud/form/form-frame.tsx'
import { RecordPresence } from '#src/crud/record/presence.tsx'
import { useWriteAccess } from '#src/crud/writes/write-access.ts'
import { accessOptions, accessToSend, managesStaff } from './access.ts'
import { PendingBadge } from './pending-requests.tsx'
import { useAccessRequest } from './request-record.ts'
import { keepAccessInStep, notAdmin, paths as accessPaths, userTypes } from './staff-form.tsx'

const never = (): boolean => false

export const approveForm: FormDef<typeof approveAccessRequest> = {
  title: 'Edit User',
  endpoint: approveAccessRequest,
  fields: [
    text('name', 'Name', { autoComplete: 'off' }),
    // Sent as requested; shown read-only in the request's summary above the form.
    email('email', 'Email', { when: never }),
    select('accessLevel', 'User Type', userTypes),
    multiSelect('restrictions', 'Access', accessOptions('edit'), { when: notAdmin }),
  ],
  done: '/sub-admin',
  submitLabel: 'Approve',
  writeRule: managesStaff,
  derive: keepAccessInStep,
  prepare: (values) => ({ ...values, restrictions: accessToSend(values['accessLevel'], accessPaths(values['restrictions']), 'edit') }),
}

/** What was asked for, and by whom: the part of the request the form does not edit. */
function RequestSummary({ request }: { request: AccessRequest }) {
  return (
    <section aria-label="Access request" className="flex flex-col gap-3 rounded-md border border-amber-200 bg-amber-50 p-4 text-sm text-slate-900">
      <div className="flex flex-wrap items-center gap-2">
        <p className="font-semibold">Access request</p>
        <PendingBadge />
      </div>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        <dt className="text-slate-700">Email</dt>
        <dd className="break-all">{request.email}</dd>
        <dt className="text-slate-700">Requested At</dt>
        <dd>
          <When at={request.createdAt} />
        </dd>
        <dt className="text-slate-700">Email Confirmed At</dt>
        <dd>
          <When at={request.confirmedAt} />
        </dd>
      </dl>
      <p className="text-slate-800">
        Choose the user type and access, then Approve: the user is created active, and a link to set their password is mailed to this email.
      </p>
    </section>
  )
}

function ApproveForm({ id, blockedReason }: { id: string; blockedReason: string | undefined }) {
  const state = useAccessRequest(id)
  if (state.status !== 'found') {
    return (
      <RecordUnloaded
        state={state}
        what="the access request"
        rows={approveForm.fields.length}
        back="/sub-admin"
        missing="This access request was not found. It may have been approved or declined already."
      />
    )
  }
  const { record } = state
  return (
    <>
      <RecordPresence id={record._id} mode="edit" />
      <RequestSummary request={record} />
      <FormBody
        key={record._id}
        def={approveForm}
        defaults={{ _id: record._id, name: record.name, email: record.email, accessLevel: '', restrictions: [] }}
        blockedReason={blockedReason}
      />
    </>
  )
}

export function ApproveRequestPage({ id }: { id: string }) {
  const write = useWriteAccess(managesStaff)
  return (
    <FormFrame title="Edit User" back={write.allowed ? undefined : '/sub-admin'}>
      {write.allowed ? <ApproveForm id={id} blockedReason={write.blockedReason} /> : <ReadOnlyNotice />}
    </FormFrame>
  )
}
