import { AddRestrictions, listCountry } from '#contract/restrictions'
import { defineForm } from '#src/crud/form/define-form.tsx'
import { searchMultiSelect } from '#src/crud/form/form-fields.ts'
import { optionsFrom } from '#src/crud/form/fields/options-source.ts'

/**
 * Add Restriction (/add-restriction, requirements R2.26, R5.14): the countries of listCountry,
 * searchable, with an All option that selects every country and clears them all when unchecked;
 * All is never a value, so '*' is never sent. Countries already listed are kept once by the server.
 */
export const AddRestrictionPage = defineForm({
  title: 'Add Restriction',
  endpoint: AddRestrictions,
  done: '/restriction',
  fields: [
    searchMultiSelect(
      'country',
      'Country',
      optionsFrom(listCountry, {}, (answer) => answer.result.map((name) => ({ value: name, label: name }))),
      { all: 'All' },
    ),
  ],
})
