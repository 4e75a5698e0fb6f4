import { PendingRequests, PendingRequestsNotice } from './pending-requests.tsx'
import { StaffListPage } from './staff-list.tsx'

/**
 * Users and Access (/sub-admin): the staff list, then the pending access requests, which only
 * staff managers see and only while there are some (with a notice above the list saying so).
 */
export function UsersAndAccessPage() {
  return (
    <div className="flex flex-col gap-10">
      <div className="flex flex-col gap-4">
        <PendingRequestsNotice />
        <StaffListPage />
      </div>
      <PendingRequests />
    </div>
  )
}
