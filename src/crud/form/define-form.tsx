/**
 * `defineForm({...})`: an add or edit screen from a short description. The kit validates with the
 * endpoint's own input schema (react-hook-form + zod), checks file fields against the endpoint's
 * FileRule, shows a loading overlay while sending, puts the server's `errors` under the matching
 * inputs, toasts the server's message and goes to `done` (requirements R4.11).
 */
import type { ComponentType } from 'react'
import type { Endpoint } from '#contract/define'
import { checkFileFields, type FormDef, type FormEndpoint } from './form-def.ts'
import { FormPage } from '../screens/form-page.tsx'
import type { Identified } from '../record/record.ts'

export type { EditSource, FieldNames, FormDef, FormEndpoint } from './form-def.ts'
export { checkFileFields } from './form-def.ts'

/** Builds the screen component; a file field the endpoint does not declare fails at once. */
export function defineForm<E extends FormEndpoint, R extends Identified = Identified, G extends Endpoint = Endpoint>(def: FormDef<E, R, G>): ComponentType {
  checkFileFields(def.title, def.endpoint, def.fields)
  function DefinedForm() {
    return <FormPage def={def} />
  }
  DefinedForm.displayName = `Form(${def.title})`
  return DefinedForm
}
