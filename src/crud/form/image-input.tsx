import { useEffect, useRef, useState } from 'react'
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

/**
 * A file input in the app's own look: the native input stays (it is what the label names, what the
 * keyboard reaches and what a screen reader announces) but is drawn as nothing; a button in the
 * look of the app's outline buttons opens it for the pointer and shows the input's focus, and a line
 * beside it names what was chosen. It offers only the rule's kinds.
 */
export function FileInput({ id, rule, multiple, onFiles, onCancel, onBlur, invalid, describedBy, disabled, resetAfterChoice = false }: FileInputProps) {
  const input = useRef<HTMLInputElement>(null)
  const [chosen, setChosen] = useState<readonly string[]>([])
  // Chromium fires `cancel` (not `change`) when the picker is closed without a choice; React has
  // no prop for it on inputs.
  useEffect(() => {
    const element = input.current
    if (!element) return
    element.addEventListener('cancel', onCancel)
    return () => element.removeEventListener('cancel', onCancel)
  }, [onCancel])
  // A list that adds each choice to the ones before (several images) shows them itself.
  const said = resetAfterChoice ? null : chosen.length === 0 ? (multiple ? 'No files chosen' : 'No file chosen') : chosen.length === 1 ? chosen[0] : `${chosen.length} files chosen`
  return (
    <div className="flex min-w-0 flex-wrap items-center gap-3">
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
          const files = [...(e.target.files ?? [])]
          setChosen(files.map((f) => f.name))
          onFiles(files)
          if (resetAfterChoice) e.target.value = ''
        }}
        className="peer sr-only"
      />
      {/* For the pointer only: the input above is the control (focused, named and announced). */}
      <button
        type="button"
        tabIndex={-1}
        aria-hidden="true"
        disabled={disabled}
        onClick={() => input.current?.click()}
        className={cn(
          'inline-flex h-9 shrink-0 items-center gap-2 rounded-md border border-slate-300 bg-white px-4 text-sm font-medium text-slate-900 hover:bg-slate-100',
          'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-indigo-600',
          invalid ? 'border-red-600' : '',
          'disabled:cursor-not-allowed disabled:opacity-60',
        )}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <path d="M12 16V4m0 0-4 4m4-4 4 4M4 16v3a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-3" />
        </svg>
        {multiple ? 'Choose files' : 'Choose a file'}
      </button>
      {said === null ? null : (
        <span aria-hidden="true" className="min-w-0 truncate text-sm text-slate-700" title={said}>
          {said}
        </span>
      )}
    </div>
  )
}
