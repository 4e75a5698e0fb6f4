import { assetUrl } from '#src/lib/api.ts'
import { chosenFiles, type FileItem } from '../file-check.ts'
import { FileInput } from '../image-input.tsx'
import { fileType, useFileValue, usePreviews } from './files.ts'
import type { FieldRenderProps } from './types.ts'

const keyOf = (item: FileItem, index: number): string => (typeof item === 'string' ? item : `${index}:${item.name}:${item.size}`)

/**
 * Several images, up to the rule's maximum: saved and chosen ones side by side, each with its own
 * remove button; each choice adds to the list, and the count is checked as it changes.
 */
function ImagesControl(props: FieldRenderProps<'images'>) {
  const { items, set, cancelled, rule } = useFileValue(props)
  const previews = usePreviews(rule)
  const update = (next: FileItem[]) => {
    previews.keep(chosenFiles(next))
    set(next)
  }
  return (
    <div className="flex flex-col gap-3">
      {items.length > 0 ? (
        <ul className="flex flex-wrap gap-3" aria-label={`Chosen: ${items.length} of at most ${rule.max}`}>
          {items.map((item, index) => {
            const src = typeof item === 'string' ? assetUrl(item) : previews.urlOf(item)
            const name = typeof item === 'string' ? `Saved image ${index + 1}` : `Chosen image ${index + 1} (${item.name})`
            return (
              <li key={keyOf(item, index)} className="relative size-20 overflow-hidden rounded-md border border-slate-300 bg-slate-50 text-xs text-slate-600">
                {src ? <img src={src} alt={name} className="size-full object-cover" /> : <span className="block p-1 break-all">{name}</span>}
                {props.readOnly ? null : (
                  <button
                    type="button"
                    aria-label={`Remove ${name}`}
                    disabled={props.disabled}
                    onClick={() => update(items.filter((_, i) => i !== index))}
                    className="absolute top-1 right-1 rounded-full bg-white/90 px-1.5 text-sm leading-5 text-red-700 shadow hover:bg-white focus-visible:outline-2 focus-visible:outline-indigo-600"
                  >
                    ×
                  </button>
                )}
              </li>
            )
          })}
        </ul>
      ) : (
        <p className="text-sm text-slate-600">{`No images yet: up to ${rule.max}.`}</p>
      )}
      {props.readOnly ? null : (
        <FileInput
          id={props.id}
          rule={rule}
          multiple
          resetAfterChoice
          // Past the maximum the choice is still taken, so the required message says what is wrong.
          onFiles={(files) => (files.length > 0 ? update([...items, ...files]) : undefined)}
          onCancel={cancelled}
          invalid={props.invalid}
          describedBy={props.describedBy}
          disabled={props.disabled}
        />
      )}
    </div>
  )
}

export const imagesType = fileType<'images'>(ImagesControl)
