/**
 * Restricted countries (contract/restrictions.ts). The one record holding a list (requirements R3.11) is stored
 * as one row per country (unique by ISO code, so adding a listed country twice keeps it once) and
 * answered as that one record: `result[0].Restrictedcountry`, `result` empty before the first
 * country. Names must be listCountry's (server/kit/rules/countries.ts). Delete All keeps the countries
 * it removes in the trash (server/kit/request/undo.ts): one Undo brings every one of them back.
 */
import { asc, eq, inArray } from 'drizzle-orm'
import { plural } from '#contract/common'
import * as restrictions from '#contract/restrictions'
import type { RestrictedCountry } from '#contract/restrictions'
import { failure, notFound } from '../../kit/request/answers.ts'
import { handlers } from '../../kit/request/handlers.ts'
import { COUNTRIES, countryNamed, type Country } from '../../kit/rules/countries.ts'
import { deleteRecords } from '../../kit/request/delete.ts'
import { restorable } from '../../kit/request/undo.ts'
import { restrictedCountries, type RestrictedCountryRow } from '../../db/schema.ts'

/** The one record's id: the list has no row of its own, and `_id` is opaque to the client. */
export const RESTRICTIONS_ID = 'restricted-countries'

const entryOf = (row: RestrictedCountryRow): RestrictedCountry => ({ _id: row.id, country: row.country, hide: row.hide })


const countryTrash = restorable({
  name: 'restricted_countries',
  table: restrictedCountries,
  endpoint: restrictions.CheckBoxDelete,
  restored: (n) => `${plural(n, 'country', 'countries')} restored to the restriction list`,
})

/** The countries named, each once; the first name that is not in the list stops the call. */
function countriesOf(names: readonly string[]): Country[] {
  const found = new Map<string, Country>()
  for (const name of names) {
    const country = countryNamed(name)
    if (country === undefined) {
      const message = `${name} is not in the country list`
      throw failure(message, { country: message })
    }
    found.set(country.code, country)
  }
  return [...found.values()]
}

export const restrictionRoutes = handlers(restrictions, {
  listCountry: async () => ({ status: 'success', message: 'Countries fetched', result: COUNTRIES.map((c) => c.name) }),

  FetchRestrictions: async (_input, ctx) => {
    const rows = await ctx.db.select().from(restrictedCountries).orderBy(asc(restrictedCountries.country), asc(restrictedCountries.id))
    const result = rows.length === 0 ? [] : [{ _id: RESTRICTIONS_ID, Restrictedcountry: rows.map(entryOf) }]
    return { status: 'success', message: 'Restrictions fetched', result }
  },

  AddRestrictions: async ({ country }, ctx) => {
    const wanted = countriesOf(country)
    const added = await ctx.db
      .insert(restrictedCountries)
      .values(wanted.map((c) => ({ code: c.code, country: c.name })))
      .onConflictDoNothing({ target: restrictedCountries.code })
      .returning({ id: restrictedCountries.id })
    // The audit row names the added entries, or the one record when every country was listed before.
    ctx.audit(added.length === 0 ? RESTRICTIONS_ID : added.map((r) => r.id).join(','))
    const kept = wanted.length - added.length
    if (added.length === 0) return { status: 'success', message: `Already restricted: ${plural(kept, 'country was', 'countries were')} listed before, nothing added` }
    const message = `${plural(added.length, 'country', 'countries')} added to the restriction list`
    return { status: 'success', message: kept === 0 ? message : `${message}, ${plural(kept, 'was', 'were')} already listed` }
  },

  HideRestrictions: async ({ hide, country }, ctx) => {
    const [row] = await ctx.db.update(restrictedCountries).set({ hide }).where(eq(restrictedCountries.id, country)).returning()
    if (row === undefined) return notFound('country')
    ctx.audit(row.id)
    return { status: 'success', message: hide ? `${row.country} hidden` : `${row.country} shown again` }
  },

  CheckBoxDelete: ({ deleteData }, ctx) =>
    deleteRecords(ctx, {
      ids: deleteData,
      field: 'deleteData',
      message: (n) => `${plural(n, 'country', 'countries')} removed from the restriction list`,
      trash: countryTrash,
      remove: (db) => db.delete(restrictedCountries).where(inArray(restrictedCountries.id, deleteData)).returning({ id: restrictedCountries.id }),
    }),

  restrictedCountries: async (_input, ctx) => {
    const rows = await ctx.db
      .select({ country: restrictedCountries.country, code: restrictedCountries.code })
      .from(restrictedCountries)
      .where(eq(restrictedCountries.hide, false))
      .orderBy(asc(restrictedCountries.country))
    return { status: 'success', message: 'Restricted countries', result: rows }
  },
})
