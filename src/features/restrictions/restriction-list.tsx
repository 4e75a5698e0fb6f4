import { CheckBoxDelete, FetchRestrictions, HideRestrictions, type RestrictedCountry } from '#contract/restrictions'
import { col, serial } from '#src/crud/columns.tsx'
import { defineList } from '#src/crud/define-list.tsx'
import { wholeListSource } from '#src/crud/list-source.ts'

/** Asked before Delete All removes the selected countries. */
export const REMOVE_COUNTRIES = 'Are you sure you want to remove these countries'

/** The entries of the one restrictions record (requirements R3.11); none before the first country. */
export const entriesOf = (answer: { result: { Restrictedcountry: RestrictedCountry[] }[] }): RestrictedCountry[] => answer.result[0]?.Restrictedcountry ?? []

/** A hidden country stays listed, marked, since the platform's apps no longer enforce it. */
function Status({ hidden }: { hidden: boolean }) {
  return hidden ? (
    <span className="inline-flex rounded-full bg-slate-200 px-2 py-0.5 text-xs font-medium text-slate-800">Hidden</span>
  ) : (
    <span className="inline-flex rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-900">Restricted</span>
  )
}

/**
 * Restriction List (/restriction, requirements R2.25). The call answers every country at once (one
 * record holding the list), so the kit pages and searches it here, and Select All reaches every
 * country the search matches, on every page. Admin: Add, a checkbox per row, Select All, Delete
 * All (CheckBoxDelete with the selected ids, after a question) and the hide/unhide toggle.
 */
export const RestrictionListPage = defineList({
  title: 'Restriction List',
  route: '/restriction',
  endpoint: wholeListSource(FetchRestrictions, {}, entriesOf, (row) => row.country, { country: (row) => row.country }),
  columns: [serial(), col('country', 'Country'), { header: 'Status', cell: (row) => <Status hidden={row.hide} /> }],
  add: { to: '/add-restriction', label: 'Add' },
  toggle: {
    kind: 'button',
    endpoint: HideRestrictions,
    payload: (row) => ({ hide: !row.hide, country: row._id }),
    isOn: (row) => row.hide,
    label: (row) => (row.hide ? 'Unhide' : 'Hide'),
  },
  selection: {
    bulk: [{ label: 'Delete All', endpoint: CheckBoxDelete, payload: (ids) => ({ deleteData: ids }), confirm: REMOVE_COUNTRIES }],
  },
})
