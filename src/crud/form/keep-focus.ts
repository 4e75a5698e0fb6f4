import type { MouseEvent } from 'react'

/**
 * A form's submit button (and any button that checks the form, such as a test send) keeps the
 * focus where it is on mouse down. Moving it would blur the field being typed in, and a blur shows
 * that field's error at once: the line it adds moves the button from under the pointer before the
 * mouse comes up, and the click is lost (a tall dialog, scrolled to its buttons, moves by the
 * whole line). The click then submits, and the submit checks every field and puts the focus on the
 * first one in error. Keyboard use is unchanged.
 */
export function keepFocus(event: MouseEvent<HTMLElement>): void {
  if (event.button === 0) event.preventDefault()
}
