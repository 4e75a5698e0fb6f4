/**
 * The signed-in shell's one classic script (index.html, before the app's module script; built by
 * vite.config.ts): sends the calls this page made first last time, while the app's code is still
 * on its way (src/lib/early-calls.ts), then paints the rows this page showed last time
 * (src/lib/rows-snapshot.ts) so a reopened list is read at once.
 */
import { liveAuthorization, pageKey, startEarlyCalls } from '#src/lib/early-calls.ts'
import { paintSnapshot } from '#src/lib/rows-snapshot.ts'
import { applyTheme, storedTheme } from '#src/lib/theme-class.ts'

const now = Date.now()
startEarlyCalls(now)
const authorization = liveAuthorization(now)
const root = document.getElementById('root')
if (authorization !== null && root !== null) {
  // The chosen theme first, or a dark choice would paint the rows light for a frame.
  applyTheme(storedTheme())
  paintSnapshot(pageKey(window.location), root, authorization, now, navigator.onLine)
}
