/** Types shared by `defineList` and the generic list page. */
import type { ComponentType, ReactNode } from 'react'
import type { z } from 'zod'
import type { Endpoint } from '#contract/define'
import type { Column, ViewField } from './columns.tsx'
import type { WriteRule } from './write-access.ts'

/** Every record of a list has an opaque `_id` (DESIGN.md). */
export interface Row {
  _id: string
}

/** A page of records: `result` + `count` (most lists) or `data` + `count` (leads). */
export type Paged<R> = { result: R[]; count: number } | { data: R[]; count: number }

/** The query every list call accepts (contract/common.ts PageQuery). */
export interface ListInput {
  page?: unknown
  limit?: unknown
  search?: string
}

export type ListEndpoint<R> = Endpoint<z.ZodType<unknown, ListInput>, z.ZodType<Paged<R>>>

type Answer = z.ZodType<{ message: string }>
/** Deletes take `{ id }` (categories, games, links) or `{ _id }` (homepage content). */
export type RemoveDef =
  | { endpoint: Endpoint<z.ZodType<unknown, { id: string }>, Answer>; confirm: string; idField?: 'id' }
  | { endpoint: Endpoint<z.ZodType<unknown, { _id: string }>, Answer>; confirm: string; idField: '_id' }

export interface ListDef<R extends Row> {
  /** The page heading, as the spec titles the screen. */
  title: string
  endpoint: ListEndpoint<R>
  columns: readonly Column<NoInfer<R>>[]
  /** Default page size; 10 unless the spec says otherwise (leads: 50). */
  pageSize?: number
  /** A modal opened by the row's View action, listing these fields. */
  view?: { title: string; fields: readonly ViewField<NoInfer<R>>[] }
  /** Admin only: the Add button's route and label. */
  add?: { to: string; label?: string }
  /** Admin only: the edit route; the record rides along in history state, its id in `?id=`. */
  edit?: string
  /** Admin only: delete with the spec's confirmation text. */
  remove?: RemoveDef
  /** Extra controls beside the title, for every session (e.g. Download CSV). */
  toolbar?: ComponentType
  /** Stricter than Admin access for add, edit and row actions (staff: role other than subadmin). */
  writeRule?: WriteRule
  /** Rows no write control may touch (the superadmin in the staff list). */
  writable?: (row: NoInfer<R>) => boolean
  /** More Admin-only controls per row, after Edit and Delete (the staff Active/DeActive toggle). */
  rowActions?: (row: NoInfer<R>, blockedReason: string | undefined) => ReactNode
}

/** The records of a page, whichever of the two answer shapes the list uses. */
export const rowsOf = <R>(page: Paged<R>): R[] => ('result' in page ? page.result : page.data)
