/**
 * The colour theme: the system's by default, or the one the admin chose, kept in this
 * browser. The CSS does the rest (src/index.css: `color-scheme` picks each colour's side), so
 * the system default works before any script runs; this only adds `.light` or `.dark` on <html>.
 */
import { useSyncExternalStore } from 'react'

export type Theme = 'system' | 'light' | 'dark'
export const THEMES: readonly { value: Theme; label: string }[] = [
  { value: 'system', label: 'System theme' },
  { value: 'light', label: 'Light theme' },
  { value: 'dark', label: 'Dark theme' },
]

const KEY = 'theme'
const listeners = new Set<() => void>()

const isTheme = (v: unknown): v is Theme => v === 'system' || v === 'light' || v === 'dark'

export function storedTheme(): Theme {
  try {
    const v = localStorage.getItem(KEY)
    return isTheme(v) ? v : 'system'
  } catch {
    return 'system'
  }
}

function apply(theme: Theme): void {
  const root = document.documentElement
  root.classList.toggle('light', theme === 'light')
  root.classList.toggle('dark', theme === 'dark')
}

export function setTheme(theme: Theme): void {
  try {
    if (theme === 'system') localStorage.removeItem(KEY)
    else localStorage.setItem(KEY, theme)
  } catch {
    // Storage refused (private mode): the choice lasts for this page only.
  }
  apply(theme)
  for (const l of listeners) l()
}

/** Applies the stored choice at start, and follows other tabs' choices. */
export function initTheme(): void {
  apply(storedTheme())
  window.addEventListener('storage', (e) => {
    if (e.key !== KEY && e.key !== null) return
    apply(storedTheme())
    for (const l of listeners) l()
  })
}

const subscribe = (l: () => void): (() => void) => {
  listeners.add(l)
  return () => listeners.delete(l)
}

export const useTheme = (): Theme => useSyncExternalStore(subscribe, storedTheme, () => 'system')
