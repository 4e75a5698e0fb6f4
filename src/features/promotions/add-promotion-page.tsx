/**
 * Add promotion (/addnotification, requirements R2.20, R4.9, R9.3): filter the users, check them (100
 * per page, 'View More' adds 100), or select all the users the filter matches (decided by the
 * server at Submit, not only the rows loaded), then Next opens the promotion modal. Checked users
 * stay checked across filters and pages, as in every list. A list may hand its selection over
 * ("Promote to these" on Leads): the modal then opens with exactly that audience, says where it came
 * from, and Clear the audience goes back to choosing here.
 */
import { useId, useState } from 'react'
import { useLocation } from 'wouter'
import { useHistoryState } from 'wouter/use-browser-location'
import { plural } from '#contract/common'
import { FilterOption, PROMOTION_PAGE_SIZE, SELECT_A_USER, type PromotionUser } from '#contract/promotions'
import { FormFrame } from '#src/crud/form/form-frame.tsx'
import { LoadMoreList } from '#src/crud/list/load-more-list.tsx'
import { BarFrame } from '#src/crud/list/selection-bar.tsx'
import { useSelection } from '#src/crud/list/selection.ts'
import { useCall } from '#src/lib/use-call.ts'
import { Button } from '#src/ui/button.tsx'
import { Checkbox } from '#src/ui/checkbox.tsx'
import { toast } from '#src/ui/toast.ts'
import { ADD_PROMOTION, handedFrom, type HandedAudience } from '#src/lib/handed-audience.ts'
import { PromotionDialog, type Audience } from './promotion-dialog.tsx'
import { UserFilterForm, useUserFilter } from './user-filter.tsx'

function UserLine({ user, checked, disabled, onToggle }: { user: PromotionUser; checked: boolean; disabled: boolean; onToggle: () => void }) {
  const details = [user.name, user.provider, user.country].filter((d) => d !== '').join(' · ')
  return (
    <label className="flex cursor-pointer items-start gap-3">
      <Checkbox className="mt-0.5" checked={checked} disabled={disabled} onChange={onToggle} aria-label={`Select ${user.email}`} />
      <span className="flex min-w-0 flex-col">
        <span className="break-all text-slate-900">{user.email}</span>
        {details ? <span className="text-xs text-slate-600">{details}</span> : null}
      </span>
    </label>
  )
}

/** A client message of requirements R8.6: the user filter matched nobody. */
export const NO_USER_FOUND = 'No user found!'

/** The promotion's audience as a list handed it over. */
const audienceOf = (handed: HandedAudience): Audience => ({ filter: handed.filter, ids: handed.ids, selectall: handed.selectall })

/** Where the audience came from, how many the list counted and by which filters; Clear goes back to choosing here. */
export function HandedNote({ handed, onClear }: { handed: HandedAudience; onClear: () => void }) {
  const what = handed.selectall ? `every lead matching (${handed.count.toLocaleString('en-US')})` : `${plural(handed.count, 'lead')} chosen`
  return (
    <BarFrame label={`Audience from ${handed.from}`}>
      <p className="font-medium">
        From {handed.from}: {what}
      </p>
      {handed.selectall ? <p>{handed.narrowedBy.length === 0 ? 'No filter: every lead.' : handed.narrowedBy.join(' · ')}</p> : null}
      <Button variant="ghost" size="sm" className="ml-auto" onClick={onClear}>
        Clear the audience
      </Button>
    </BarFrame>
  )
}

export function AddPromotionPage() {
  const [filter, setFilter] = useUserFilter()
  const selection = useSelection()
  const [selectAll, setSelectAll] = useState(false)
  const handed = handedFrom(useHistoryState())
  const [, navigate] = useLocation()
  // Handed over by a list ("Promote to these"), the promotion's form opens at once with that audience.
  const [audience, setAudience] = useState<Audience | null>(handed === null ? null : audienceOf(handed))
  const headingId = useId()
  const clearHanded = () => {
    setAudience(null)
    navigate(ADD_PROMOTION, { replace: true, state: null })
  }
  const input = (page: number) => ({ page, limit: PROMOTION_PAGE_SIZE, data: filter })
  // The same call as the list's first page (one request): the count that Select All offers. Not
  // asked while a handed-over audience stands in for the choice here.
  const { data } = useCall(FilterOption, handed === null ? input(1) : null, { keepPreviousData: true })
  const matching = data?.count

  function next() {
    if (!selectAll && selection.selected.size === 0) {
      toast.error(SELECT_A_USER)
      return
    }
    setAudience({ filter, ids: selectAll ? [] : [...selection.selected], selectall: selectAll })
  }

  const dialog = (
    <PromotionDialog audience={audience} onClose={() => setAudience(null)} origin={handed === null ? undefined : <HandedNote handed={handed} onClear={clearHanded} />} />
  )
  if (handed !== null) {
    return (
      <FormFrame title="Add Promotion" back="/notificationlist" wide>
        <HandedNote handed={handed} onClear={clearHanded} />
        <div>
          <Button onClick={() => setAudience(audienceOf(handed))}>Next</Button>
        </div>
        {dialog}
      </FormFrame>
    )
  }
  return (
    <FormFrame title="Add Promotion" back="/notificationlist" wide>
      <UserFilterForm key={JSON.stringify(filter)} applied={filter} onApply={setFilter} />
      <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-md border border-slate-200 bg-white p-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id={headingId} className="text-base font-semibold text-slate-900">
            Users
          </h2>
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <label className="flex items-center gap-2">
              <Checkbox checked={selectAll} onChange={() => setSelectAll(!selectAll)} disabled={matching === 0} />
              {matching === undefined ? 'Select all users matching the filter' : `Select all ${matching.toLocaleString()} users matching the filter`}
            </label>
            {!selectAll && selection.selected.size > 0 ? (
              <>
                <span role="status">{selection.selected.size} selected</span>
                <Button variant="ghost" size="sm" onClick={selection.clear}>
                  Clear
                </Button>
              </>
            ) : null}
            <Button onClick={next}>Next</Button>
          </div>
        </div>
        <LoadMoreList
          key={JSON.stringify(filter)}
          label="Users"
          endpoint={FilterOption}
          input={input}
          pick={(answer) => ({ items: answer.data, count: answer.count })}
          itemKey={(u) => u._id}
          render={(u) => (
            <UserLine user={u} checked={selectAll || selection.selected.has(u._id)} disabled={selectAll} onToggle={() => selection.toggle(u._id)} />
          )}
          moreLabel="View More"
          step={PROMOTION_PAGE_SIZE}
          empty={NO_USER_FOUND}
        />
      </section>
      {dialog}
    </FormFrame>
  )
}
