import { assetUrl } from '#src/lib/api.ts'
import { chosenFiles } from '../file-check.ts'
import { FileInput } from '../image-input.tsx'
import { fileType, useFileValue, usePreviews } from './files.ts'
import type { FieldRenderProps } from './types.ts'

/** One image: the saved one (edit forms) or the chosen one, previewed beside a native file input. */
function ImageControl(props: FieldRenderProps<'image'>) {
  const { items, saved, set, cancelled, rule } = useFileValue(props)
  const previews = usePreviews(rule)
  const chosen = chosenFiles(items)[0]
  const savedUrl = saved[0]
  const shown = chosen ? previews.urlOf(chosen) : savedUrl ? assetUrl(savedUrl) : undefined
  return (
    <div className="flex items-center gap-4">
      <div className="flex size-20 shrink-0 items-center justify-center overflow-hidden rounded-md border border-slate-300 bg-slate-50 text-xs text-slate-600">
        {shown ? <img src={shown} alt={chosen ? 'Preview of the chosen image' : 'Current image'} className="size-full object-cover" /> : 'No image'}
      </div>
      {props.readOnly ? null : (
        <FileInput
          id={props.id}
          rule={rule}
          multiple={false}
          onFiles={(files) => {
            previews.keep(files.slice(0, 1))
            // Clearing the choice brings back the saved image, which is kept unless replaced.
            if (files.length === 0) set(saved, true)
            else set(files)
          }}
          onCancel={cancelled}
          invalid={props.invalid}
          describedBy={props.describedBy}
          disabled={props.disabled}
        />
      )}
    </div>
  )
}

export const imageType = fileType<'image'>(ImageControl)
