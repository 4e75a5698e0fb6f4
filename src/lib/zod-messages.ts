/**
 * zod/mini's English messages for the checks the contract words none for ("Too small: expected
 * number to be >=1"): imported, for this effect, by every module that checks what staff typed (the
 * form hook and the few forms that check by hand). Not set with the first screen's code, which
 * only reads answers the server already checked: 1.1 KiB less on every first load.
 *
 * zod reads the locale when a check fails, not when a schema is built, so setting it here, after
 * the contract's schemas exist, is in time. It imports zod/mini by the name the build's alias
 * leaves alone, as zod-setup.ts does.
 */
import { z } from 'zod/v4/mini'

z.config(z.locales.en())
