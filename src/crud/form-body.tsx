import { useEffect, useMemo, useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { useSWRConfig } from 'swr'
import { zodResolver } from '@hookform/resolvers/zod'
import { z } from 'zod'
import { Link, useLocation } from 'wouter'
import type { FileRule } from '#contract/define'
import { ApiError, SecondFactorRequired, call } from '#src/lib/api.ts'
import { toast } from '#src/lib/toast.ts'
import { Button } from '#src/ui/button.tsx'
import { LoadingOverlay } from '#src/ui/spinner.tsx'
import type { FormDef, FormEndpoint } from './define-form.tsx'
import { errorMessage } from './error-message.ts'
import { FieldControl, type Values } from './field-control.tsx'
import { checkFiles } from './file-check.ts'
import { isImage, type FormField } from './form-fields.ts'
import type { Row } from './list-types.ts'
import { SecondFactorField } from './second-factor-field.tsx'

/** A file field's value: the chosen files, checked with the endpoint's rule and the spec's messages. */
const filesOf = (rule: FileRule) =>
  z.array(z.instanceof(File)).default([]).superRefine((files, ctx) => {
    const problem = checkFiles(files, rule)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })

/** A field with a `when` rule shows only while the rule holds for the current values. */
function ShownField({ field, form, ...rest }: React.ComponentProps<typeof FieldControl> & { field: FormField<string> }) {
  const values = useWatch({ control: form.control })
  const when = 'when' in field ? field.when : undefined
  if (when && !when(values)) return null
  return <FieldControl field={field} form={form} {...rest} />
}

export interface BodyProps<E extends FormEndpoint, R extends Row> {
  def: FormDef<E, R>
  defaults: Values
  currentFiles: Record<string, string>
  blockedReason: string | undefined
  /** Called after a successful save instead of going to `def.done` (a form inside a dialog). */
  onSaved?: () => void
}

/** The form itself: validation, sending, server errors, the overlay, the toast and the redirect. */
export function FormBody<E extends FormEndpoint, R extends Row>({ def, defaults, currentFiles, blockedReason, onSaved }: BodyProps<E, R>) {
  const [, navigate] = useLocation()
  const { mutate } = useSWRConfig()
  const { rules, fileNames, schema } = useMemo(() => {
    const rules: Record<string, FileRule> = def.endpoint.files ?? {}
    const fileNames = def.fields.filter(isImage).map((f) => f.name)
    const fileShape = Object.fromEntries(fileNames.flatMap((n) => (rules[n] ? [[n, filesOf(rules[n])]] : [])))
    const schema: z.ZodType<Values, Values> = (def.schema ?? def.endpoint.input).extend(fileShape)
    return { rules, fileNames, schema }
  }, [def])
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: defaults, mode: 'onTouched' })
  const { isSubmitting } = form.formState
  const [secondFactor, setSecondFactor] = useState<string | null>(null)

  // Fields kept in step with each other: only the user's own changes trigger it (setValue does not).
  const { derive } = def
  useEffect(() => {
    if (!derive) return
    return form.subscribe({
      formState: { values: true },
      callback: ({ values, name, type }) => {
        if (type !== 'change' || name === undefined) return
        for (const [key, value] of Object.entries(derive(name, values))) form.setValue(key, value, { shouldValidate: form.formState.isSubmitted })
      },
    })
  }, [derive, form])

  async function send(values: Values) {
    const input: Values = {}
    const files: Record<string, File[]> = {}
    for (const [key, value] of Object.entries(values)) {
      if (fileNames.includes(key)) files[key] = Array.isArray(value) ? value.filter((v) => v instanceof File) : []
      else input[key] = value
    }
    try {
      // Widened to the kit's own endpoint type: the values were parsed by its schema just above.
      const endpoint: FormEndpoint = def.endpoint
      // Multipart only when the form has file fields: a JSON endpoint cannot read form data.
      const answer = await call(endpoint, def.prepare ? def.prepare(input) : input, fileNames.length > 0 ? files : undefined)
      toast.success(answer.message)
      setSecondFactor(null)
      form.reset(defaults)
      // A write can change any list (a renamed category shows in games too): every cached answer
      // is refetched when next shown, instead of the list coming back with its old page.
      void mutate(() => true)
      if (onSaved) onSaved()
      else navigate(def.done)
    } catch (error) {
      if (error instanceof SecondFactorRequired) {
        setSecondFactor(error.message)
        toast.success(error.message)
        return
      }
      const known = new Set([...def.fields.map((f) => f.name), 'twoFACode'])
      if (error instanceof ApiError) {
        for (const [key, message] of Object.entries(error.errors)) {
          if (known.has(key)) form.setError(key, { type: 'server', message }, { shouldFocus: true })
        }
      }
      toast.error(errorMessage(error))
    }
  }

  return (
    <form
      noValidate
      onSubmit={form.handleSubmit(send)}
      aria-busy={isSubmitting}
      className="relative flex flex-col gap-4 rounded-md border border-slate-200 bg-white p-6"
    >
      {def.fields.map((f) => (
        <ShownField key={f.name} field={f} form={form} rule={rules[f.name]} current={currentFiles[f.name]} />
      ))}
      {secondFactor ? <SecondFactorField message={secondFactor} form={form} /> : null}
      {blockedReason ? <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">{blockedReason}</p> : null}
      <div className="flex gap-2">
        <Button type="submit" disabled={isSubmitting || blockedReason !== undefined}>
          {def.submitLabel ?? 'Submit'}
        </Button>
        <Button variant="outline" asChild>
          <Link href={def.done}>Cancel</Link>
        </Button>
      </div>
      {isSubmitting ? <LoadingOverlay /> : null}
    </form>
  )
}
