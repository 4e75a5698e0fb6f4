/** The idle timeout's warning (idle-guard.tsx): focus starts on "Stay signed in", and Escape stays too. */
import { ConfirmDialog } from '#src/ui/alert-dialog.tsx'

export function IdleWarning({ secondsLeft, onStay, onLogout }: { secondsLeft: number; onStay: () => void; onLogout: () => void }) {
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onStay())}
      title="Are you still there?"
      description={`You will be signed out in ${secondsLeft} ${secondsLeft === 1 ? 'second' : 'seconds'}.`}
      cancelLabel="Stay signed in"
      choices={[{ label: 'Log out', onChoose: onLogout }]}
      onConfirm={onStay}
    />
  )
}
