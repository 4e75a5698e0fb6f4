/** Puts `text` on the clipboard; where the Clipboard API is missing (plain http), through a selected field. */
export async function copyText(text: string): Promise<void> {
  if (typeof navigator.clipboard?.writeText === 'function') return navigator.clipboard.writeText(text)
  const field = document.createElement('textarea')
  field.value = text
  field.setAttribute('readonly', '')
  field.style.position = 'fixed'
  field.style.opacity = '0'
  document.body.append(field)
  field.select()
  // The legacy command is the only way to copy outside a secure context.
  const copied = document.execCommand('copy')
  field.remove()
  if (!copied) throw new Error('The browser refused to copy')
}
