/**
 * The descriptions a screen writes for the kit's forms (`defineForm`, `defineRecordForm`) and the
 * check made on them at start. They sit apart from the components that render them, so the list
 * kit (an edit dialog is a form) and the form bodies can name them without importing the pages
 * that import those bodies back.
 */
import type { ReactNode } from 'react'
import type { z } from 'zod/mini'
import type { Endpoint, Input, Output } from '#contract/define'
import type { ScreenPath } from '#contract/routes'
import { isFilePart } from './field-registry.ts'
import type { FormField, Values } from './form-fields.ts'
import type { Identified, RecordSource } from '../record/record.ts'
import type { WriteRule } from '../writes/write-access.ts'

/** A write whose text fields are an object schema and whose answer carries the server's message. */
export type FormEndpoint = Endpoint<z.ZodMiniObject, z.ZodMiniType<{ message: string }>>

/** Names of the endpoint's input fields: what a value field may be called. */
export type FieldNames<E extends FormEndpoint> = keyof z.input<E['input']> & string

/**
 * Where an edit form finds its record (record.ts): passed by the list in history state, else the
 * get-one call's cached or fetched answer.
 *
 *     record: { get: getCategory, input: (id) => ({ id }), pick: (a) => a.data, schema: Category,
 *               values: (c) => ({ id: c._id, categoryName: c.categoryName }), files: (c) => ({ image: c.image }) }
 */
export interface EditSource<E extends FormEndpoint, R extends Identified, G extends Endpoint = Endpoint> extends RecordSource<G, R> {
  /** The form's starting values (hidden ones such as `id` included). */
  values: (record: NoInfer<R>) => z.input<E['input']>
  /** Saved file URLs per file field: previewed, kept unless replaced or removed. */
  files?: (record: NoInfer<R>) => Record<string, string | readonly string[]>
}

export interface FormDef<E extends FormEndpoint, R extends Identified = Identified, G extends Endpoint = Endpoint> {
  title: string
  endpoint: E
  /** Only to add form-only rules (confirm password) on top of `endpoint.input`. */
  schema?: z.ZodMiniObject
  fields: readonly FormField<FieldNames<E>>[]
  /** Starting values of an add form; each field otherwise starts at its kind's blank value. */
  initial?: Partial<z.input<E['input']>>
  /** Route to go to after success (requirements R2.13: /category after a category save). */
  done: ScreenPath
  submitLabel?: string
  /** Present on edit forms. */
  record?: EditSource<E, R, G>
  /** Stricter than Admin access (staff forms: role other than subadmin too). */
  writeRule?: WriteRule
  /**
   * Keeps fields in step: called after the user changes field `changed`, with every current
   * value; returns the fields to set (Create User: choosing Admin adds the child pages).
   */
  derive?: (changed: string, values: Values) => Values
  /** Last touch to the checked values before sending (Edit User adds /profile and /resetpassword). */
  prepare?: (values: Values) => Values
  /**
   * What saving will change, shown under Submit as the values change (Edit User: the access gained
   * and lost), from the current values and those the form started from. Under the buttons, so
   * its growing never moves them.
   */
  summary?: (props: { values: Values; start: Values }) => ReactNode
}

/** Throws when a file field names no file field of the endpoint, so a typo fails at start. */
export function checkFileFields(title: string, endpoint: Endpoint, fields: readonly FormField<string>[]): void {
  for (const f of fields) {
    if (isFilePart(f) && !endpoint.files?.[f.name]) throw new Error(`${title}: ${endpoint.name} has no file field "${f.name}"`)
  }
}

export interface RecordFormDef<S extends FormEndpoint, G extends Endpoint, R> {
  title: string
  /** The read of the one record, and its input (`{}` for most). */
  read: G
  readInput: Input<G>
  /** The record in the read's answer; undefined when none is stored yet. */
  pick: (answer: Output<G>) => R | undefined
  save: S
  fields: readonly FormField<FieldNames<S>>[]
  /** The form's starting values from the record (hidden ones such as `_id` included). */
  values: (record: NoInfer<R>) => z.input<S['input']>
  /** Saved file URLs per file field (a site logo), previewed and kept unless replaced. */
  files?: (record: NoInfer<R>) => Record<string, string | readonly string[]>
  /** The save button's label; 'Update' unless the requirements name another. */
  submitLabel?: string
  /** Two columns on wide screens (a long form such as Settings); text areas and files take both. */
  columns?: 1 | 2
  writeRule?: WriteRule
  /** One line under the screen's title saying what the record is (Social Links: which five links these are). */
  description?: string
  /**
   * A record whose change reaches users at once (the token's price): Update first asks this
   * question, listing each changed field with its stored and new value, and saves only on yes.
   */
  confirmChanges?: string
  /**
   * A long form in titled groups, each naming its fields (every field in exactly one). A form with
   * sections saves from one bar kept in view at the bottom of the screen, enabled once something changed.
   */
  sections?: readonly FormSection[]
}

/** A titled group of a record form's fields, with an optional line saying what they are. */
export interface FormSection {
  title: string
  description?: string
  fields: readonly string[]
}

/** Throws unless the sections name every field exactly once, so a field cannot vanish from the form. */
export function checkSections(title: string, fields: readonly FormField<string>[], sections: readonly FormSection[]): void {
  const named = sections.flatMap((s) => s.fields)
  const all = fields.map((f) => f.name)
  const twice = named.filter((n, i) => named.indexOf(n) !== i)
  const unknown = named.filter((n) => !all.includes(n))
  const left = all.filter((n) => !named.includes(n))
  if (twice.length + unknown.length + left.length > 0) {
    throw new Error(`${title}: sections name fields twice (${twice.join(', ')}), unknown (${unknown.join(', ')}) or leave some out (${left.join(', ')})`)
  }
}
