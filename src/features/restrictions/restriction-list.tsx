import { CheckBoxDelete, FetchRestrictions, HideRestrictions, type RestrictedCountry } from '#contract/restrictions'
import { col, serial } from '#src/crud/list/columns.tsx'
import { defineList } from '#src/crud/list/define-list.tsx'
import { wholeListSource } from '#src/crud/list/list-source.ts'

/** Asked before Delete All removes the selected countries. */
export const REMOVE_COUNTRIES = 'Are you sure you want to remove these countries'

/** The entries of the one restrictions record (requirements R3.11); none before the first country. */
export const entriesOf = (answer: { result: { Restrictedcountry: RestrictedCountry[] }[] }): RestrictedCountry[] => answer.result[0]?.Restrictedcountry ?? []

/** What hiding a country does, said once above the list rather than in every row. */
export const HIDDEN_MEANS =
  'A hidden country stays on this list, but the apps no longer enforce its restriction: it leaves the list they read within a minute. Unhide it to enforce it again.'

/**
 * Whether the apps enforce the country's restriction now: the state in its own words, so that it never reads like
 * the Hide / Unhide button beside it (requirements R4.7), which names what pressing it does.
 */
export const statusWord = (hidden: boolean): string => (hidden ? 'Not enforced' : 'Enforced')

function Status({ hidden }: { hidden: boolean }) {
  return hidden ? (
    <span className="inline-flex rounded-full bg-slate-200 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-slate-800">{statusWord(true)}</span>
  ) : (
    <span className="inline-flex rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-amber-900">{statusWord(false)}</span>
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
  empty: { says: 'Countries where the platform is restricted, each shown to users or hidden.', addFirst: 'Restrict the first country' },
  about: HIDDEN_MEANS,
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
