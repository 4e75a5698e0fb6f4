import { useId, useState, type ReactNode } from 'react'
import { Toolbar } from 'radix-ui'
import { useEditorState, type Editor } from '@tiptap/react'
import { Button } from '#src/ui/button.tsx'
import { Input } from '#src/ui/input.tsx'
import { cn } from '#src/ui/cn.ts'

/** Decorative icons; every button carries its own name. */
const ICONS = {
  bullets: 'M9 6h11M9 12h11M9 18h11M4.5 6h.01M4.5 12h.01M4.5 18h.01',
  numbers: 'M10 6h10M10 12h10M10 18h10M4 5l1.5-1V9M3.5 14.5a1.5 1.5 0 0 1 3 .5L3.5 19h3',
  rule: 'M3 12h18',
  link: 'M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1',
  undo: 'M9 14 4 9l5-5M4 9h10a6 6 0 0 1 0 12h-3',
  redo: 'M15 14l5-5-5-5M20 9H10a6 6 0 0 0 0 12h3',
} as const

function Icon({ name }: { name: keyof typeof ICONS }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
      <path d={ICONS[name]} />
    </svg>
  )
}

interface ToolProps {
  label: string
  /** For toggles (bold, a list): whether it is on where the cursor is. */
  pressed?: boolean
  disabled?: boolean
  onClick: () => void
  children: ReactNode
}

function Tool({ label, pressed, disabled = false, onClick, children }: ToolProps) {
  return (
    <Toolbar.Button
      type="button"
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      disabled={disabled}
      // The editor keeps its selection: a mouse press on a tool must not take the focus from the text first.
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
      className={cn(
        'inline-flex h-8 min-w-8 items-center justify-center rounded px-1.5 text-sm text-slate-800 hover:bg-slate-100',
        'focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:opacity-40',
        pressed ? 'bg-indigo-100 text-indigo-900' : '',
      )}
    >
      {children}
    </Toolbar.Button>
  )
}

const Separator = () => <Toolbar.Separator className="mx-1 h-5 w-px bg-slate-200" />

/** Where the cursor is: which marks and blocks are on, and what undo can do. */
function useActive(editor: Editor) {
  return useEditorState({
    editor,
    selector: ({ editor: e }) => (e.isDestroyed ? IDLE : {
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      strike: e.isActive('strike'),
      h1: e.isActive('heading', { level: 1 }),
      h2: e.isActive('heading', { level: 2 }),
      h3: e.isActive('heading', { level: 3 }),
      bullets: e.isActive('bulletList'),
      numbers: e.isActive('orderedList'),
      quote: e.isActive('blockquote'),
      link: e.isActive('link'),
      href: typeof e.getAttributes('link')['href'] === 'string' ? String(e.getAttributes('link')['href']) : '',
      undo: e.can().undo(),
      redo: e.can().redo(),
    }),
  })
}

/** What the toolbar shows for an editor being replaced (see rich-text-editor.tsx). */
const IDLE = {
  bold: false,
  italic: false,
  underline: false,
  strike: false,
  h1: false,
  h2: false,
  h3: false,
  bullets: false,
  numbers: false,
  quote: false,
  link: false,
  href: '',
  undo: false,
  redo: false,
}

/** The link's address, asked for in the toolbar itself (no browser prompt). */
function LinkForm({ editor, initial, onDone }: { editor: Editor; initial: string; onDone: () => void }) {
  const inputId = useId()
  const [address, setAddress] = useState(initial)
  const [error, setError] = useState('')
  function apply() {
    const trimmed = address.trim()
    // A bare host is meant as a web address.
    const href = /^www\./i.test(trimmed) ? `https://${trimmed}` : trimmed
    const set = editor.chain().focus().extendMarkRange('link').setLink({ href }).run()
    if (!set) return setError('Use an address starting with https://, http:// or mailto:, or a variable such as {{unsubscribeUrl}}')
    onDone()
  }
  return (
    <div className="flex flex-col gap-1 border-b border-slate-200 px-2 py-2">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={inputId} className="text-sm font-medium text-slate-800">
          Link address
        </label>
        <Input
          id={inputId}
          autoFocus
          value={address}
          onChange={(event) => setAddress(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault()
              apply()
            }
          }}
          aria-invalid={error !== '' || undefined}
          className="h-8 w-72 max-w-full"
          placeholder="https://"
        />
        <Button size="sm" onClick={apply}>
          Apply
        </Button>
        {initial ? (
          <Button size="sm" variant="outline" onClick={() => {
              editor.chain().focus().extendMarkRange('link').unsetLink().run()
              onDone()
            }}>
            Remove link
          </Button>
        ) : null}
        <Button size="sm" variant="ghost" onClick={() => {
            editor.commands.focus()
            onDone()
          }}>
          Cancel
        </Button>
      </div>
      {error ? <p className="text-sm text-red-700">{error}</p> : null}
    </div>
  )
}

/** Formatting buttons, one tab stop, arrow keys between them; each named for screen readers. */
export function EditorToolbar({ editor }: { editor: Editor }) {
  const on = useActive(editor)
  const [linking, setLinking] = useState(false)
  const run = (command: (chain: ReturnType<Editor['chain']>) => ReturnType<Editor['chain']>) => () => command(editor.chain().focus()).run()
  return (
    <>
      <Toolbar.Root aria-label="Formatting" className="flex flex-wrap items-center gap-0.5 border-b border-slate-200 px-1 py-1">
        <Tool label="Bold" pressed={on.bold} onClick={run((c) => c.toggleBold())}>
          <strong>B</strong>
        </Tool>
        <Tool label="Italic" pressed={on.italic} onClick={run((c) => c.toggleItalic())}>
          <em className="font-serif">I</em>
        </Tool>
        <Tool label="Underline" pressed={on.underline} onClick={run((c) => c.toggleUnderline())}>
          <u>U</u>
        </Tool>
        <Tool label="Strikethrough" pressed={on.strike} onClick={run((c) => c.toggleStrike())}>
          <s>S</s>
        </Tool>
        <Separator />
        {([1, 2, 3] as const).map((level) => (
          <Tool key={level} label={`Heading ${level}`} pressed={on[`h${level}`]} onClick={run((c) => c.toggleHeading({ level }))}>
            <span className="text-xs font-bold">H{level}</span>
          </Tool>
        ))}
        <Separator />
        <Tool label="Bulleted list" pressed={on.bullets} onClick={run((c) => c.toggleBulletList())}>
          <Icon name="bullets" />
        </Tool>
        <Tool label="Numbered list" pressed={on.numbers} onClick={run((c) => c.toggleOrderedList())}>
          <Icon name="numbers" />
        </Tool>
        <Tool label="Quote" pressed={on.quote} onClick={run((c) => c.toggleBlockquote())}>
          <span aria-hidden="true" className="font-serif text-xl leading-none">
            “
          </span>
        </Tool>
        <Tool label="Horizontal line" onClick={run((c) => c.setHorizontalRule())}>
          <Icon name="rule" />
        </Tool>
        <Tool label={on.link ? 'Edit link' : 'Link'} pressed={on.link} onClick={() => setLinking((v) => !v)}>
          <Icon name="link" />
        </Tool>
        <Separator />
        <Tool label="Undo" disabled={!on.undo} onClick={run((c) => c.undo())}>
          <Icon name="undo" />
        </Tool>
        <Tool label="Redo" disabled={!on.redo} onClick={run((c) => c.redo())}>
          <Icon name="redo" />
        </Tool>
      </Toolbar.Root>
      {linking ? <LinkForm key={on.href} editor={editor} initial={on.href} onDone={() => setLinking(false)} /> : null}
    </>
  )
}
