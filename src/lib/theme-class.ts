/**
 * The stored theme and the class it puts on <html>, without React: the early script
 * (src/boot/early-calls.ts) applies it before painting the kept rows, so a dark choice never
 * shows a light frame first. src/lib/theme.ts builds the rest on it.
 */
export type Theme = 'system' | 'light' | 'dark'

export const THEME_KEY = 'theme'

const isTheme = (v: unknown): v is Theme => v === 'system' || v === 'light' || v === 'dark'

export function storedTheme(): Theme {
  try {
    const v = localStorage.getItem(THEME_KEY)
    return isTheme(v) ? v : 'system'
  } catch {
    return 'system'
  }
}

export function applyTheme(theme: Theme): void {
  const root = document.documentElement
  root.classList.toggle('light', theme === 'light')
  root.classList.toggle('dark', theme === 'dark')
}
