/**
 * The colour theme: the system's by default, or the one the admin chose, kept in this
 * browser. The CSS does the rest (src/index.css: `color-scheme` picks each colour's side), so
 * the system default works before any script runs; this only adds `.light` or `.dark` on <html>.
 */
import { useSyncExternalStore } from 'react'
import { THEME_KEY, applyTheme, storedTheme, type Theme } from './theme-class.ts'

export type { Theme }
export { storedTheme }
export const THEMES: readonly { value: Theme; label: string }[] = [
  { value: 'system', label: 'System theme' },
  { value: 'light', label: 'Light theme' },
  { value: 'dark', label: 'Dark theme' },
]

const listeners = new Set<() => void>()

export function setTheme(theme: Theme): void {
  try {
    if (theme === 'system') localStorage.removeItem(THEME_KEY)
    else localStorage.setItem(THEME_KEY, theme)
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
  applyTheme(theme)
  for (const l of listeners) l()
}

/** Applies the stored choice at start, and follows other tabs' choices. */
export function initTheme(): void {
  applyTheme(storedTheme())
  window.addEventListener('storage', (e) => {
    if (e.key !== THEME_KEY && e.key !== null) return
    applyTheme(storedTheme())
    for (const l of listeners) l()
  })
}

const subscribe = (l: () => void): (() => void) => {
  listeners.add(l)
  return () => listeners.delete(l)
}

export const useTheme = (): Theme => useSyncExternalStore(subscribe, storedTheme, () => 'system')
