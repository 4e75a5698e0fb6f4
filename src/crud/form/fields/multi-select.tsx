import { Suspense, lazy } from 'react'
import { Controller } from 'react-hook-form'
import { stringList } from '#src/lib/string-list.ts'
import { MultiSelect } from '#src/ui/multi-select.tsx'
import type { SelectOption } from '#src/ui/select.tsx'
import { selectTriggerClass } from '#src/ui/select-trigger.tsx'
import type { OptionSource } from '../form-fields.ts'
import { OptionsError } from './options-error.tsx'
import type { FieldRenderProps, FieldType } from './types.ts'


function MenuMultiSelect({ field, form, id, describedBy, invalid, disabled, readOnly }: FieldRenderProps<'multiselect'>) {
  return (
    <Controller
      name={field.name}
      control={form.control}
      render={({ field: f }) => (
        <MultiSelect
          id={id}
          value={stringList(f.value)}
          onValueChange={f.onChange}
          onBlur={f.onBlur}
          options={field.options}
          placeholder={field.placeholder}
          aria-invalid={invalid}
          aria-describedby={describedBy}
          disabled={disabled || readOnly}
        />
      )}
    />
  )
}

/** A short list in a menu (Create User's Access). */
export const multiSelectType: FieldType<'multiselect'> = { initial: () => [], part: 'input', render: MenuMultiSelect }

// cmdk, the popover and the windowing arrive with the first form that shows a long list.
const Searchable = lazy(async () => ({ default: (await import('#src/ui/searchable-multi-select.tsx')).SearchableMultiSelect }))

type SearchProps = FieldRenderProps<'search-multiselect'>

/** Until its code arrives, a trigger that looks the same says it is loading. */
function Waiting({ id, label }: { id: string; label: string }) {
  return (
    <button type="button" id={id} disabled className={selectTriggerClass('w-full')}>
      <span className="text-slate-600">{`Loading ${label}…`}</span>
    </button>
  )
}

function SearchControl({ field, form, id, describedBy, invalid, disabled, readOnly, options, loading }: SearchProps & { options: readonly SelectOption[]; loading: boolean }) {
  if (loading) return <Waiting id={id} label={field.label} />
  return (
    <Suspense fallback={<Waiting id={id} label={field.label} />}>
      <Controller
        name={field.name}
        control={form.control}
        render={({ field: f }) => (
          <Searchable
            id={id}
            label={field.label}
            allLabel={field.all}
            value={stringList(f.value)}
            onValueChange={f.onChange}
            onBlur={f.onBlur}
            options={options}
            placeholder={field.placeholder}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            disabled={disabled || readOnly}
          />
        )}
      />
    </Suspense>
  )
}

function FromSource(props: SearchProps & { source: OptionSource }) {
  const state = props.source.useOptions()
  if (state.status === 'error') return <OptionsError id={props.id} label={props.field.label} message={state.message} retry={state.retry} />
  return <SearchControl {...props} options={state.status === 'ready' ? state.options : []} loading={state.status === 'loading'} />
}

function SearchMultiSelect(props: SearchProps) {
  const { field } = props
  return 'source' in field ? <FromSource {...props} source={field.source} /> : <SearchControl {...props} options={field.options} loading={false} />
}

/** A long list: searchable, windowed past a few hundred options, options given or loaded from a call. */
export const searchMultiSelectType: FieldType<'search-multiselect'> = { initial: () => [], part: 'input', render: SearchMultiSelect }
