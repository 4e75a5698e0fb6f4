import { Button } from '#src/ui/button.tsx'

/** A field whose options could not be loaded: why, and a Retry button. The label points at the message. */
export function OptionsError({ id, label, message, retry }: { id: string; label: string; message: string; retry: () => void }) {
  return (
    <div role="alert" className="flex items-center justify-between gap-3 rounded-md border border-red-200 bg-red-50 px-3 py-1.5 text-sm text-red-900">
      <span id={id}>{`Could not load the ${label} options: ${message}`}</span>
      <Button variant="outline" size="sm" onClick={retry}>
        Retry
      </Button>
    </div>
  )
}
