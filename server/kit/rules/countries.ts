/**
 * The country list of the whole server: ISO 3166-1 names and alpha-2 codes from the maintained
 * i18n-iso-countries package (English official names), read once. `listCountry` offers the names,
 * Add Restriction stores a name with its code, and the promotion's country filter reads the same
 * list, so a country is spelled one way everywhere.
 */
import isoCountries from 'i18n-iso-countries/index.js'
import english from 'i18n-iso-countries/langs/en.json' with { type: 'json' }

export interface Country {
  code: string
  name: string
}

isoCountries.registerLocale(english)

/** Every country, by name in English alphabetical order. */
export const COUNTRIES: readonly Country[] = Object.entries(isoCountries.getNames('en', { select: 'official' }))
  .map(([code, name]) => ({ code, name }))
  .sort((a, b) => a.name.localeCompare(b.name, 'en'))

const byName = new Map(COUNTRIES.map((c) => [c.name.toLocaleLowerCase('en'), c]))

const byCode = new Map(COUNTRIES.map((c) => [c.code, c.name]))

/** The name of a stored alpha-2 code as listCountry spells it; '' for none or a code the list does not know. */
export const countryName = (code: string): string => byCode.get(code) ?? ''

/** The country of a name as listCountry spells it, whatever its case; undefined for anything else. */
export const countryNamed = (name: string): Country | undefined => byName.get(name.trim().toLocaleLowerCase('en'))
