import { useEffect, useRef, useState } from 'react'
import { Input } from '#src/ui/input.tsx'

const DEBOUNCE_MS = 300

/**
 * The list's filter box. The URL follows the typing after a short pause, so one request goes
 * out per pause rather than per key; a change of the URL from outside (Back) refills the box.
 */
export function SearchBox({ value, onSearch }: { value: string; onSearch: (search: string) => void }) {
  const [text, setText] = useState(value)
  const latest = useRef(onSearch)
  latest.current = onSearch

  useEffect(() => setText(value), [value])

  useEffect(() => {
    if (text.trim() === value.trim()) return
    const timer = setTimeout(() => latest.current(text.trim()), DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [text, value])

  return (
    <Input
      type="search"
      aria-label="Search"
      placeholder="Search"
      value={text}
      maxLength={200}
      onChange={(e) => setText(e.target.value)}
      className="w-64 max-w-full"
    />
  )
}
