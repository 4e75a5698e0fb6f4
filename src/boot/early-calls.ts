/**
 * The signed-in shell's one classic script (index.html, before the app's module script; built by
 * vite.config.ts): sends the calls this page made first last time, while the app's code is still
 * on its way (src/lib/early-calls.ts).
 */
import { startEarlyCalls } from '#src/lib/early-calls.ts'

startEarlyCalls()
