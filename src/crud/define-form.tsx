/**
 * `defineForm({...})`: an add or edit screen from a short description. The kit validates with the
 * endpoint's own input schema (react-hook-form + zod), checks file fields against the endpoint's
 * FileRule, shows a loading overlay while sending, puts the server's `errors` under the matching
 * inputs, toasts the server's message and goes to `done` (spec section 4).
 */
import type { ComponentType } from 'react'
import type { z } from 'zod'
import type { Endpoint } from '#contract/define'
import type { FormField } from './form-fields.ts'
import { FormPage } from './form-page.tsx'
import type { ListEndpoint, Row } from './list-types.ts'
import type { WriteRule } from './write-access.ts'

/** A write whose text fields are an object schema and whose answer carries the server's message. */
export type FormEndpoint = Endpoint<z.ZodObject, z.ZodType<{ message: string }>>

type Fields<E extends FormEndpoint> = keyof z.input<E['input']> & string

/** Where an edit form finds its record: passed by the list, else the list's cache or pages. */
export interface EditSource<E extends FormEndpoint, R extends Row> {
  list: ListEndpoint<R>
  schema: z.ZodType<R>
  /** The form's starting values (hidden ones such as `id` included). */
  values: (record: NoInfer<R>) => z.input<E['input']>
  /** Saved file URL per file field, previewed until another file is chosen. */
  files?: (record: NoInfer<R>) => Record<string, string>
}

export interface FormDef<E extends FormEndpoint, R extends Row> {
  title: string
  endpoint: E
  /** Only to add form-only rules (confirm password) on top of `endpoint.input`. */
  schema?: z.ZodObject
  fields: readonly FormField<Fields<E>>[]
  /** Starting values of an add form; text fields default to ''. */
  initial?: Partial<z.input<E['input']>>
  /** Route to go to after success (spec: /category after a category save). */
  done: string
  submitLabel?: string
  /** Present on edit forms. */
  record?: EditSource<E, R>
  /** Stricter than Admin access (staff forms: role other than subadmin too). */
  writeRule?: WriteRule
  /**
   * Keeps fields in step: called after the user changes field `changed`, with every current
   * value; returns the fields to set (Create User: choosing Admin adds the child pages).
   */
  derive?: (changed: string, values: Record<string, unknown>) => Record<string, unknown>
  /** Last touch to the checked values before sending (Edit User adds /profile and /resetpassword). */
  prepare?: (values: Record<string, unknown>) => Record<string, unknown>
}

/** Builds the screen component; a file field the endpoint does not declare fails at once. */
export function defineForm<E extends FormEndpoint, R extends Row = Row>(def: FormDef<E, R>): ComponentType {
  for (const f of def.fields) {
    if (f.kind === 'image' && !def.endpoint.files?.[f.name]) {
      throw new Error(`${def.title}: ${def.endpoint.name} has no file field "${f.name}"`)
    }
  }
  function DefinedForm() {
    return <FormPage def={def} />
  }
  DefinedForm.displayName = `Form(${def.title})`
  return DefinedForm
}
