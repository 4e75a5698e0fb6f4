import { useState } from 'react'
import { unstable_serialize, useSWRConfig } from 'swr'
import { useLocation, useSearch } from 'wouter'
import type { Endpoint } from '#contract/define'
import { call } from '#src/lib/api.ts'
import type { FormDef, FormEndpoint } from '../form/form-def.ts'
import { FormBody } from '../form/form-body.tsx'
import { FormFrame, ReadOnlyNotice, RecordUnloaded } from '../form/form-frame.tsx'
import { RecordHistory } from '../record/record-history.tsx'
import { RecordPresence } from '../record/presence.tsx'
import { useEditRecord, type Identified } from '../record/record.ts'
import { useWriteAccess } from '../writes/write-access.ts'

function EditForm<E extends FormEndpoint, R extends Identified, G extends Endpoint>({ def, blockedReason }: { def: FormDef<E, R, G>; blockedReason: string | undefined }) {
  const source = def.record
  if (!source) throw new Error('EditForm needs a record source')
  const state = useEditRecord(source)
  const { mutate } = useSWRConfig()
  const [location, navigate] = useLocation()
  const search = useSearch()
  // After Reload: the record as saved now, and a new form (the user's edits of the old one go).
  const [reloaded, setReloaded] = useState<{ record: R; generation: number } | null>(null)
  if (state.status !== 'found') return <RecordUnloaded state={state} what="the record" rows={def.fields.length} back={def.done} />
  const record = reloaded?.record._id === state.record._id ? reloaded.record : state.record
  const reload = async () => {
    const input = source.input(record._id)
    const answer = await call(source.get, input)
    const latest = source.pick(answer)
    // The cached answer and the history state hold the old record: both take the new one, so a
    // later reload of the page or an offline visit does not bring the old one back.
    await mutate(unstable_serialize([source.get.name, input]), answer, { revalidate: false })
    navigate(search ? `${location}?${search}` : location, { replace: true, state: { record: latest } })
    setReloaded((previous) => ({ record: latest, generation: (previous?.generation ?? 0) + 1 }))
  }
  return (
    <>
      <RecordPresence id={record._id} mode="edit" onReload={reload} />
      <FormBody
        key={`${record._id}:${reloaded?.generation ?? 0}`}
        def={def}
        defaults={source.values(record)}
        currentFiles={source.files?.(record) ?? {}}
        blockedReason={blockedReason}
        onReload={reload}
      />
    </>
  )
}

/** The generic add/edit screen behind every `defineForm`. View Only sessions get no form. */
export function FormPage<E extends FormEndpoint, R extends Identified, G extends Endpoint>({ def }: { def: FormDef<E, R, G> }) {
  const write = useWriteAccess(def.writeRule)
  // An edit page's record is named by `?id=` (record.ts): its History, shown even to View Only staff who may read the log.
  const search = useSearch()
  const recordId = def.record ? (new URLSearchParams(search).get('id') ?? '') : ''
  let content
  if (!write.allowed) content = <ReadOnlyNotice />
  else if (def.record) content = <EditForm def={def} blockedReason={write.blockedReason} />
  else content = <FormBody def={def} defaults={def.initial ?? {}} blockedReason={write.blockedReason} />
  return (
    // A form has its Cancel beside Submit: the Back link is for the screens with none (Cancel once).
    <FormFrame title={def.title} back={write.allowed ? undefined : def.done} actions={recordId === '' ? null : <RecordHistory recordId={recordId} />}>
      {content}
    </FormFrame>
  )
}
