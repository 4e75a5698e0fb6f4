import { assetUrl } from '#src/lib/api.ts'
import { Button } from '#src/ui/button.tsx'
import { cn } from '#src/ui/cn.ts'
import { FileInput } from '../image-input.tsx'
import { fileType, useOneFile } from './files.ts'
import type { FieldRenderProps } from './types.ts'

/**
 * One video (mp4, m4a, webm): the saved or chosen one plays in a preview beside the file input,
 * with Remove video (a field with `keep` then sends no kept video, and the saved one goes).
 * With a video the well is dark in both themes (`scheme-light`), as a player is; empty, it is
 * drawn like the image fields' (it follows the theme).
 */
function VideoControl(props: FieldRenderProps<'video'>) {
  const { items, set, previews, chosen, input } = useOneFile(props)
  const savedUrl = items.find((item): item is string => typeof item === 'string')
  const shown = chosen ? previews.urlOf(chosen) : savedUrl ? assetUrl(savedUrl) : undefined
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
      <div
        className={cn(
          'flex aspect-video w-60 shrink-0 items-center justify-center overflow-hidden rounded-md border border-slate-300 text-xs',
          shown ? 'bg-slate-900 text-slate-200 scheme-light' : 'bg-slate-50 text-slate-600',
        )}
      >
        {shown ? (
          <video src={shown} controls preload="metadata" aria-label={chosen ? 'Preview of the chosen video' : 'Current video'} className="size-full">
            <track kind="captions" />
          </video>
        ) : (
          'No video'
        )}
      </div>
      {props.readOnly ? null : <FileInput {...input} />}
      {props.readOnly || items.length === 0 ? null : (
        <Button
          variant="outline"
          size="sm"
          disabled={props.disabled}
          onClick={() => {
            previews.keep([])
            set([])
          }}
        >
          Remove video
        </Button>
      )}
    </div>
  )
}

export const videoType = fileType<'video'>(VideoControl)
