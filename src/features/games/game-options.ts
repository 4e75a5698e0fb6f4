import { categoryDropdown } from '#contract/catalog'
import { operatingSystems } from '#contract/games'
import { optionsFrom } from '#src/crud/form/fields/options-source.ts'

/** Requirements R9.7: Android, ios, both, as the dropdowns show them. */
export const operatingSystemOptions = operatingSystems.map((os) => ({ value: os, label: os }))

/** The categories from categoryDropdown, for the list's filter and the forms' select. */
export const categoryOptions = optionsFrom(categoryDropdown, {}, (answer) => answer.result.data.map((c) => ({ value: c._id, label: c.categoryName })))
