/**
 * Keyboard-driven lists: every list answers the same keys, declared once here, shown
 * by the shortcut sheet (`?`) and by the palette.
 *
 * A row is focused for real (DOM focus on its <tr>), so a screen reader reads the row as it moves;
 * keys typed into a field, a dialog or a menu are never taken.
 */
import { useCallback, useLayoutEffect, useRef, useState } from 'react'

export const LIST_SHORTCUTS: readonly { keys: readonly string[]; does: string }[] = [
  { keys: ['↓', 'j'], does: 'Next row' },
  { keys: ['↑', 'k'], does: 'Previous row' },
  { keys: ['Enter'], does: "Open the row (its view, or its edit form)" },
  { keys: ['x', 'Space'], does: 'Select or unselect the row (lists with bulk actions; Shift+click a checkbox selects the rows between)' },
  { keys: ['/'], does: 'Search the list (then ↓ goes to the rows it found)' },
  { keys: ['n'], does: 'Add (where your access allows it)' },
  { keys: ['?'], does: 'Show these shortcuts' },
  { keys: ['Ctrl', 'K'], does: 'Open the command palette' },
  { keys: ['Ctrl', 'Z'], does: 'Undo the last delete or freeze, while its Undo shows' },
]

/** Fired to open the shortcut sheet (the `?` key, or the palette's entry). */
export const SHOW_SHORTCUTS = 'bo:show-shortcuts'
export const showShortcuts = (): void => void window.dispatchEvent(new Event(SHOW_SHORTCUTS))

/** Whether a key press belongs to something else: a field, an open dialog, a menu or a listbox. */
export function keyIsTaken(event: KeyboardEvent): boolean {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return true
  return targetIsTaken(event.target)
}

/** Whether keys typed at `target` belong to it: a field, a dialog, a menu or a listbox (or a modal is open). */
export function targetIsTaken(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false
  if (target.closest('input, textarea, select, [contenteditable="true"], [role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"], [role="combobox"]')) return true
  // A modal open elsewhere on the page (its focus trap may not hold the target yet).
  return document.querySelector('[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]') !== null
}

export interface ListKeyActions {
  rowCount: number
  /** Enter on the focused row. */
  onOpen: (index: number) => void
  /** x on the focused row; absent when the list has no selection. */
  onSelect?: ((index: number) => void) | undefined
  /** n; absent when the session may not add here. */
  onAdd?: (() => void) | undefined
}

/** The focused row's index (-1: none yet) and the keys that move and act on it. */
export function useListKeys({ rowCount, onOpen, onSelect, onAdd }: ListKeyActions): { focused: number; setFocused: (index: number) => void } {
  const [focused, setFocusedState] = useState(-1)
  const current = focused >= rowCount ? rowCount - 1 : focused
  // The row each key acts on, kept as the keys come: several keys pressed before the next render
  // (a quick j j k, a held arrow) each move on from the one before, not from the last render.
  const latest = useRef(current)
  useLayoutEffect(() => {
    latest.current = current
  }, [current])
  const setFocused = useCallback((index: number) => {
    latest.current = index
    setFocusedState(index)
  }, [])

  // Bound before the browser paints (a layout effect, not a passive one): once the rows show, a
  // key pressed at once finds the listener that knows them, not the one of the empty list.
  useLayoutEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // ↓ from the list's search goes down into the rows it found.
      if (event.key === 'ArrowDown' && event.target instanceof HTMLInputElement && event.target.type === 'search' && rowCount > 0) {
        event.preventDefault()
        setFocused(0)
        return
      }
      if (keyIsTaken(event)) return
      const at = Math.min(latest.current, rowCount - 1)
      const move = (delta: number) => {
        if (rowCount === 0) return
        event.preventDefault()
        setFocused(Math.min(rowCount - 1, Math.max(0, (at < 0 ? (delta > 0 ? -1 : rowCount) : at) + delta)))
      }
      switch (event.key) {
        case 'ArrowDown':
        case 'j':
          move(1)
          break
        case 'ArrowUp':
        case 'k':
          move(-1)
          break
        case 'Enter':
          if (at >= 0 && event.target instanceof HTMLTableRowElement) {
            event.preventDefault()
            onOpen(at)
          }
          break
        case 'x':
          if (at >= 0 && onSelect) {
            event.preventDefault()
            onSelect(at)
          }
          break
        case ' ':
          // On the focused row itself only: Space on a button in the row presses the button.
          if (at >= 0 && onSelect && event.target instanceof HTMLTableRowElement) {
            event.preventDefault()
            onSelect(at)
          }
          break
        case '/': {
          const search = document.querySelector<HTMLInputElement>('main input[type="search"]')
          if (search) {
            event.preventDefault()
            search.focus()
          }
          break
        }
        case 'n':
          if (onAdd) {
            event.preventDefault()
            onAdd()
          }
          break
      }
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [rowCount, setFocused, onOpen, onSelect, onAdd])

  return { focused: current, setFocused }
}
