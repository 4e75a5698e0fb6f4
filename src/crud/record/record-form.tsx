/**
 * `defineRecordForm({...})`: a screen that reads one record and saves it in place (Settings,
 * Social Links, Version). It reads with `read`, starts the form from `values(pick(answer))` (a
 * blank form when nothing is stored yet) and saves with `save`, with the same checks, overlay,
 * server errors and toasts as every kit form. Fields may be guarded (`lock`: read-only until its
 * unlock toggle is pressed; `pencil`: disabled until its pencil is pressed) and carry an action
 * (`fieldAction`: delete with a confirmation). View Only sees the values, read-only, and no
 * write control. Its History (record-history.tsx) lists the audit rows naming the record's `_id`.
 */
import { useState, type ComponentType } from 'react'
import type { z } from 'zod/mini'
import type { Endpoint, Input } from '#contract/define'
import { call } from '#src/lib/api.ts'
import { useCall } from '#src/lib/use-call.ts'
import { errorMessage } from '../form/error-message.ts'
import { checkFileFields, checkSections, type FormEndpoint, type RecordFormDef } from '../form/form-def.ts'
import type { FieldAction, Values } from '../form/form-fields.ts'
import { FormFrame, RecordUnloaded } from '../form/form-frame.tsx'
import { RecordFormBody } from './record-form-body.tsx'
import { RecordHistory } from './record-history.tsx'
import { RecordPresence } from './presence.tsx'
import { useWriteAccess } from '../writes/write-access.ts'
import { undoNote } from '../writes/undo.ts'

export type { RecordFormDef } from '../form/form-def.ts'

/**
 * A per-field action calling `endpoint` once confirmed; by default the field is emptied when it
 * succeeds (a deleted link, a removed version).
 */
export function fieldAction<E extends Endpoint<z.ZodMiniType, z.ZodMiniType<{ message: string }>>>(
  endpoint: E,
  def: { label: string; confirm: string; explain?: FieldAction['explain']; payload: (name: string, values: Values) => Input<E>; clears?: boolean },
): FieldAction {
  return {
    label: def.label,
    icon: 'trash',
    confirm: def.confirm,
    note: undoNote(endpoint),
    explain: def.explain,
    clears: def.clears ?? true,
    run: (name, values) => call(endpoint, def.payload(name, values)),
  }
}

/** The stored record's `_id`, which its writes name in the audit log ('' before one is stored). */
const storedId = (record: unknown): string => (typeof record === 'object' && record !== null && '_id' in record && typeof record._id === 'string' ? record._id : '')

function RecordFormPage<S extends FormEndpoint, G extends Endpoint, R>({ def }: { def: RecordFormDef<S, G, R> }) {
  const { data, error, mutate } = useCall(def.read, def.readInput, { revalidateOnFocus: false })
  // A new body (fields locked again, values from the saved record) after each save.
  const [generation, setGeneration] = useState(0)
  const write = useWriteAccess(def.writeRule)
  const reload = async () => {
    await mutate()
    setGeneration((n) => n + 1)
  }
  let content
  const recordId = data === undefined ? '' : storedId(def.pick(data))
  if (data !== undefined) {
    const record = def.pick(data)
    content = (
      <RecordFormBody
        key={generation}
        def={def}
        defaults={record === undefined ? {} : def.values(record)}
        currentFiles={record === undefined ? {} : (def.files?.(record) ?? {})}
        onSaved={() => setGeneration((n) => n + 1)}
        onReload={reload}
      />
    )
  } else {
    const state = error ? { status: 'error' as const, message: errorMessage(error) } : { status: 'loading' as const }
    content = <RecordUnloaded state={state} what={def.title} rows={def.fields.length} retry={() => void mutate()} />
  }
  return (
    <FormFrame title={def.title} description={def.description} wide={def.columns === 2} actions={recordId === '' ? null : <RecordHistory recordId={recordId} />}>
      {recordId === '' ? null : <RecordPresence id={recordId} mode={write.allowed ? 'edit' : 'view'} onReload={reload} />}
      {content}
    </FormFrame>
  )
}

/** Builds the screen component; a file field the save endpoint does not declare fails at once. */
export function defineRecordForm<S extends FormEndpoint, G extends Endpoint, R>(def: RecordFormDef<S, G, R>): ComponentType {
  checkFileFields(def.title, def.save, def.fields)
  if (def.sections) checkSections(def.title, def.fields, def.sections)
  function DefinedRecordForm() {
    return <RecordFormPage def={def} />
  }
  DefinedRecordForm.displayName = `RecordForm(${def.title})`
  return DefinedRecordForm
}
