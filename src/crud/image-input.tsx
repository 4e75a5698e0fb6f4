import { useEffect, useRef, useState } from 'react'
import type { FileRule } from '#contract/define'
import { assetUrl } from '#src/lib/api.ts'
import { cn } from '#src/ui/cn.ts'
import { acceptFor, checkFiles } from './file-check.ts'

interface ImageInputProps {
  id: string
  rule: FileRule
  value: readonly File[]
  /** The new choice; empty when the input was cleared. */
  onChange: (files: File[]) => void
  /** The picker was closed without a choice (the input keeps what it had). */
  onCancel: () => void
  onBlur: () => void
  /** URL of the image already saved (edit forms), shown until another is chosen. */
  current?: string | undefined
  invalid: boolean
  describedBy?: string | undefined
}

/** A native file input (keyboard and screen-reader friendly as it is) with a preview beside it. */
export function ImageInput({ id, rule, value, onChange, onCancel, onBlur, current, invalid, describedBy }: ImageInputProps) {
  const input = useRef<HTMLInputElement>(null)
  // Object URL of the chosen image, made when it is chosen and revoked when replaced or unmounted.
  const [preview, setPreview] = useState<string>()
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview])
  const shown = value.length > 0 ? preview : current ? assetUrl(current) : undefined

  // Chromium fires `cancel` (not `change`) when the picker is closed without a choice; React has
  // no prop for it on inputs.
  useEffect(() => {
    const element = input.current
    if (!element) return
    element.addEventListener('cancel', onCancel)
    return () => element.removeEventListener('cancel', onCancel)
  }, [onCancel])

  return (
    <div className="flex items-center gap-4">
      <div className="flex size-20 shrink-0 items-center justify-center overflow-hidden rounded-md border border-slate-300 bg-slate-50 text-xs text-slate-600">
        {shown ? (
          <img src={shown} alt={value.length > 0 ? 'Preview of the chosen image' : 'Current image'} className="size-full object-cover" />
        ) : (
          'No image'
        )}
      </div>
      <input
        ref={input}
        id={id}
        type="file"
        accept={acceptFor(rule)}
        multiple={rule.max > 1}
        aria-invalid={invalid}
        aria-describedby={describedBy}
        onBlur={onBlur}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])]
          // Only a file that passes the rule is previewed (another kind would not display).
          const first = files[0]
          setPreview(first && checkFiles([first], rule) === null ? URL.createObjectURL(first) : undefined)
          onChange(files)
        }}
        className={cn(
          'block w-full text-sm text-slate-800 file:mr-3 file:h-9 file:cursor-pointer file:rounded-md file:border-0',
          'file:bg-slate-800 file:px-3 file:text-sm file:font-medium file:text-white hover:file:bg-slate-900',
          'rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
        )}
      />
    </div>
  )
}
