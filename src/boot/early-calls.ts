/**
 * The signed-in shell's one classic script (index.html, before the app's module script; built by
 * vite.config.ts): sends the calls this page made first last time, while the app's code is still
 * on its way (src/lib/early-calls.ts), and paints the rows this page showed last time
 * (src/lib/rows-snapshot.ts) so a reopened list is read at once.
 *
 * The rows go first and the calls after the frame that shows them: a frame waits for the script
 * to end, and sending six calls and asking for some twenty scripts took some 450 ms of a busy,
 * throttled phone-like main thread, while the answers are wanted only once the app's code runs,
 * well after that frame. Where nothing is painted the calls go at once.
 */
import { liveAuthorization, pageKey, startEarlyCalls } from '#src/lib/early-calls.ts'
import { paintSnapshot } from '#src/lib/rows-snapshot.ts'
import { applyTheme, storedTheme } from '#src/lib/theme-class.ts'

const now = Date.now()
const authorization = liveAuthorization(now)
const root = document.getElementById('root')
let painted = false
if (authorization !== null && root !== null) {
  // The chosen theme first, or a dark choice would paint the rows light for a frame.
  applyTheme(storedTheme())
  painted = paintSnapshot(pageKey(window.location), root, authorization, now, navigator.onLine)
}
if (painted) requestAnimationFrame(() => setTimeout(() => startEarlyCalls(now)))
else startEarlyCalls(now)
