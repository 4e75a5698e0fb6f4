/**
 * The rich-text editor of the kit (TipTap on ProseMirror), loaded as its own chunk by
 * rich-text.tsx. It edits exactly what the server keeps (server/kit/ground/sanitize.ts): paragraphs,
 * headings 1 to 3, bold, italic, underline, strike, lists, quotes, rules, links and inline images;
 * code and other marks are not offered. Content from the server goes through DOMPurify before the
 * editor parses it.
 *
 * Keyboard: the toolbar is one tab stop (arrow keys move between its buttons, Radix Toolbar);
 * the usual shortcuts work in the text (Ctrl+B, Ctrl+I, Ctrl+U, Ctrl+Z...).
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import Image from '@tiptap/extension-image'
import { EditorContent, useEditor, type Editor } from '@tiptap/react'
import StarterKit from '@tiptap/starter-kit'
import { cspNonce } from '#src/ui/csp-nonce.ts'
import { safeHtml } from '#src/lib/safe-html.ts'
import { cn } from '#src/ui/cn.ts'
import type { RichTextEditorProps, Snippet } from '../form-fields.ts'
import { EditorToolbar } from './rich-text-toolbar.tsx'

/** Addresses a link may take: the web, a mailbox, or a whole `{{variable}}` the mail fills in. */
export const LINK_ADDRESS = /^(?:https?:\/\/|mailto:)\S+$|^\{\{\s*[A-Za-z][A-Za-z0-9_]*\s*\}\}$/i

/** Typography for the text inside the editor (the app's reset removes list bullets and heading sizes). */
const CONTENT_CLASS = cn(
  'min-h-48 max-h-[50vh] overflow-y-auto px-3 py-2 text-sm text-slate-900 outline-none',
  '[&_h1]:mt-3 [&_h1]:text-2xl [&_h1]:font-bold [&_h2]:mt-3 [&_h2]:text-xl [&_h2]:font-bold [&_h3]:mt-2 [&_h3]:text-lg [&_h3]:font-semibold',
  '[&_p]:my-2 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:list-decimal [&_ol]:pl-6 [&_blockquote]:border-l-4 [&_blockquote]:border-slate-300 [&_blockquote]:pl-3',
  '[&_a]:text-indigo-700 [&_a]:underline [&_hr]:my-3 [&_img]:inline-block [&_img]:max-w-full',
)

const EXTENSIONS = [
  StarterKit.configure({
    heading: { levels: [1, 2, 3] },
    code: false,
    codeBlock: false,
    link: {
      openOnClick: false,
      autolink: true,
      protocols: ['mailto'],
      isAllowedUri: (url) => LINK_ADDRESS.test(url),
      HTMLAttributes: { target: '_blank', rel: 'noopener noreferrer' },
    },
  }),
  Image.configure({ inline: true, allowBase64: true }),
]

/** The form's value for the editor's text: '' when it holds nothing, so "required" rules still see an empty field. */
const valueOf = (editor: Editor): string => (editor.isEmpty ? '' : editor.getHTML())

function SnippetList({ snippets, onInsert, describedBy }: { snippets: readonly Snippet[]; onInsert: (text: string) => void; describedBy: string }) {
  return (
    <div className="flex flex-col gap-1.5 border-t border-slate-200 px-3 py-2">
      <p id={describedBy} className="text-xs text-slate-600">
        Variables: the mail fills these in. Click one to insert it at the cursor.
      </p>
      <ul className="flex flex-wrap gap-2" aria-label="Variables">
        {snippets.map((s) => (
          <li key={s.text}>
            <button
              type="button"
              onClick={() => onInsert(s.text)}
              className="rounded border border-slate-300 bg-slate-50 px-2 py-0.5 font-mono text-xs text-slate-900 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
              aria-label={`Insert ${s.text}: ${s.description}${s.required ? ' (required)' : ''}`}
              title={s.description}
            >
              {s.text}
              {s.required ? <span className="ml-1 font-sans text-red-700">required</span> : null}
            </button>
            <span className="ml-1 text-xs text-slate-600">{s.description}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}

export function RichTextEditor({ id, labelId, snippets, value, onChange, onBlur, invalid, describedBy, disabled, readOnly }: RichTextEditorProps) {
  const editable = !disabled && !readOnly
  // The latest callbacks, for the editor's handlers (created once, with the editor).
  const handlers = useRef({ onChange, onBlur })
  useLayoutEffect(() => {
    handlers.current = { onChange, onBlur }
  })
  const snippetsId = `${id}-variables`

  const described = [describedBy, snippets && editable ? snippetsId : undefined].filter(Boolean).join(' ')
  // Part of the options, not set apart: TipTap applies each render's options to the editor (and
  // compares them by identity first, hence the memo).
  const editorProps = useMemo(
    () => ({
      attributes: {
        id,
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelId,
        ...(described ? { 'aria-describedby': described } : {}),
        ...(invalid ? { 'aria-invalid': 'true' } : {}),
        ...(editable ? {} : { 'aria-readonly': 'true' }),
        class: CONTENT_CLASS,
      },
    }),
    [id, labelId, described, invalid, editable],
  )
  // Only the first text is given at creation; later values arrive through the effect below.
  const [initial] = useState(() => safeHtml(value))

  // Made after the first commit (immediatelyRender false): an editor made while rendering is
  // destroyed again when the commit takes longer than TipTap waits (this modal's does), and an
  // effect of that render would then use a dead editor. Null until then; every use checks.
  const made: Editor | null = useEditor({
    immediatelyRender: false,
    extensions: EXTENSIONS,
    content: initial,
    editable,
    editorProps,
    shouldRerenderOnTransaction: false,
    // TipTap adds its base styles as a style element: with the page's nonce, or CSP refuses it.
    injectNonce: cspNonce(),
    onUpdate: ({ editor: e }) => handlers.current.onChange(valueOf(e)),
    onBlur: () => handlers.current.onBlur(),
  })
  const editor = made !== null && !made.isDestroyed ? made : null

  // A value set from outside (a reset, a restored version) replaces the text; the editor's own echo does not.
  useEffect(() => {
    if (editor && !editor.isDestroyed && value !== valueOf(editor)) editor.commands.setContent(safeHtml(value), { emitUpdate: false })
  }, [editor, value])
  useEffect(() => {
    if (editor && !editor.isDestroyed) editor.setEditable(editable, false)
  }, [editor, editable])

  return (
    <div
      className={cn(
        'rounded-md border bg-white focus-within:outline-2 focus-within:outline-indigo-600',
        invalid ? 'border-red-600' : 'border-slate-300',
        editable ? '' : 'bg-slate-50',
      )}
    >
      {editable && editor ? <EditorToolbar editor={editor} /> : null}
      <EditorContent editor={editor} />
      {snippets && snippets.length > 0 && editable && editor ? (
        <SnippetList snippets={snippets} describedBy={snippetsId} onInsert={(text) => editor.chain().focus().insertContent(text).run()} />
      ) : null}
    </div>
  )
}
