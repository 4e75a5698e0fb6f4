import { assetUrl } from '#src/lib/api.ts'
import { FileInput } from '../image-input.tsx'
import { fileType, useOneFile } from './files.ts'
import type { FieldRenderProps } from './types.ts'

/** One image: the saved one (edit forms) or the chosen one, previewed beside a native file input. */
function ImageControl(props: FieldRenderProps<'image'>) {
  const { saved, previews, chosen, input } = useOneFile(props)
  const savedUrl = saved[0]
  const shown = chosen ? previews.urlOf(chosen) : savedUrl ? assetUrl(savedUrl) : undefined
  return (
    <div className="flex items-center gap-4">
      <div className="flex size-20 shrink-0 items-center justify-center overflow-hidden rounded-md border border-slate-300 bg-slate-50 text-xs text-slate-600">
        {shown ? <img src={shown} alt={chosen ? 'Preview of the chosen image' : 'Current image'} className="size-full object-cover" /> : 'No image'}
      </div>
      {props.readOnly ? null : <FileInput {...input} />}
    </div>
  )
}

export const imageType = fileType<'image'>(ImageControl)
