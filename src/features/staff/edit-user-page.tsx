import { useSearch } from 'wouter'
import { ApproveRequestPage } from './approve-request-page.tsx'
import { EditStaffPage } from './staff-form.tsx'

/**
 * Edit User (/edit-subAdmin): a staff member's record (`?id=`), or an access request being
 * approved (`?request=`, from the pending requests of Users and Access).
 */
export function EditUserPage() {
  const request = new URLSearchParams(useSearch()).get('request')
  return request === null ? <EditStaffPage /> : <ApproveRequestPage id={request} />
}
