import { useEffect, useRef } from 'react'
import type { FileRule } from '#contract/define'
import { cn } from '#src/ui/cn.ts'
import { acceptFor } from './file-check.ts'

interface FileInputProps {
  id: string
  rule: FileRule
  /** Several files at once (a field that collects up to the rule's maximum). */
  multiple: boolean
  /** The files just chosen; empty when the input was cleared. */
  onFiles: (files: File[]) => void
  /** The picker was closed without a choice (the input keeps what it had). */
  onCancel: () => void
  onBlur?: () => void
  invalid: boolean
  describedBy: string | undefined
  disabled: boolean
  /** Empty the input after each choice, so that the next choice adds to a list (several images). */
  resetAfterChoice?: boolean
}

/** A native file input (keyboard and screen-reader friendly as it is) that offers only the rule's kinds. */
export function FileInput({ id, rule, multiple, onFiles, onCancel, onBlur, invalid, describedBy, disabled, resetAfterChoice = false }: FileInputProps) {
  const input = useRef<HTMLInputElement>(null)
  // Chromium fires `cancel` (not `change`) when the picker is closed without a choice; React has
  // no prop for it on inputs.
  useEffect(() => {
    const element = input.current
    if (!element) return
    element.addEventListener('cancel', onCancel)
    return () => element.removeEventListener('cancel', onCancel)
  }, [onCancel])
  return (
    <input
      ref={input}
      id={id}
      type="file"
      accept={acceptFor(rule)}
      multiple={multiple}
      aria-invalid={invalid}
      aria-describedby={describedBy}
      disabled={disabled}
      onBlur={onBlur}
      onChange={(e) => {
        onFiles([...(e.target.files ?? [])])
        if (resetAfterChoice) e.target.value = ''
      }}
      className={cn(
        'block w-full text-sm text-slate-800 file:mr-3 file:h-9 file:cursor-pointer file:rounded-md file:border-0',
        'file:bg-slate-800 file:px-3 file:text-sm file:font-medium file:text-white hover:file:bg-slate-900',
        'rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
        'disabled:cursor-not-allowed disabled:opacity-60 disabled:file:cursor-not-allowed',
      )}
    />
  )
}
