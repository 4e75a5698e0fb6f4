/**
 * Focus back to what opened a dialog, once it closes. Radix gives focus back only to its own
 * Trigger, and most of our dialogs are opened from elsewhere (a row's button, the palette, a
 * shortcut): without this, focus would fall to the page's body and a keyboard user would start
 * again from the top. The element focused when the dialog opened is remembered; when it is gone
 * from the page by the time the dialog closes (a table drawn anew), `fallback` may name another.
 * Used by the dialog primitives (dialog.tsx, alert-dialog.tsx), so no dialog repeats it.
 */
import { useRef } from 'react'

export interface ReturnFocusHandlers {
  onOpenAutoFocus: (event: Event) => void
  onCloseAutoFocus: (event: Event) => void
}

export function useReturnFocus(fallback?: () => HTMLElement | null): ReturnFocusHandlers {
  const opener = useRef<Element | null>(null)
  return {
    onOpenAutoFocus: () => {
      opener.current = document.activeElement
    },
    onCloseAutoFocus: (event) => {
      const remembered = opener.current instanceof HTMLElement && opener.current.isConnected ? opener.current : null
      const target = remembered ?? fallback?.() ?? null
      if (target) {
        event.preventDefault()
        target.focus()
      }
    },
  }
}
