/** Icons of the per-field controls of single-record forms; decorative, each button has its own name. */
const paths = {
  locked: 'M7 11V8a5 5 0 0 1 10 0v3M5 11h14v10H5z',
  unlocked: 'M7 11V8a5 5 0 0 1 9.6-2M5 11h14v10H5z',
  pencil: 'M4 20h4L19 9l-4-4L4 16v4Zm9.5-13.5 4 4',
  trash: 'M4 7h16M9 7V4h6v3m-8 0 1 13h8l1-13M10 11v6m4-6v6',
} as const

export function FieldIcon({ name }: { name: keyof typeof paths }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d={paths[name]} />
    </svg>
  )
}
