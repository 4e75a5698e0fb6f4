import { useEffect, useState } from 'react'
import { Input } from '#src/ui/input.tsx'

const DEBOUNCE_MS = 300

/**
 * The list's filter box. The URL follows the typing after a short pause, so one request goes
 * out per pause rather than per key; a change of the URL from outside (Back) refills the box.
 */
export function SearchBox({ value, onSearch }: { value: string; onSearch: (search: string) => void }) {
  const [text, setText] = useState(value)
  const [seen, setSeen] = useState(value)
  if (value !== seen) {
    // Adjusting state to a changed prop during render (React's documented pattern, no effect).
    setSeen(value)
    if (value !== text.trim()) setText(value)
  }

  useEffect(() => {
    if (text.trim() === value) return
    const timer = setTimeout(() => onSearch(text.trim()), DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [text, value, onSearch])

  return (
    <div className="w-full sm:w-72">
      <Input
      type="search"
      aria-label="Search"
      placeholder="Search"
      value={text}
      maxLength={200}
      onChange={(e) => setText(e.target.value)}
      />
    </div>
  )
}
