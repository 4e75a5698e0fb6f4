import { DeleteVersion, getSiteSettings, updateVersion } from '#contract/version'
import { text } from '#src/crud/form/form-fields.ts'
import { textOf } from '#src/crud/form/form-hook.ts'
import { defineRecordForm, fieldAction } from '#src/crud/record/record-form.tsx'

/** What removing does, said on the screen and again in its confirmation. */
const REMOVAL = 'Removing leaves the site settings with no version until a new one is saved with Update.'

/** The trash button: DeleteVersion with the screen's record as `datas` (requirements R7.11). */
const removeVersion = fieldAction(DeleteVersion, {
  label: 'Delete',
  confirm: 'Are you sure you want to remove this version',
  explain: (_, values) => {
    const value = textOf(values['version']).trim()
    return value === '' ? REMOVAL : `Version ${value} will be removed. ${REMOVAL}`
  },
  payload: (_, values) => ({ datas: { _id: textOf(values['_id']) } }),
})

/**
 * Version (/version): the version field disabled until its pencil is pressed, Update, and the
 * trash button for Admin. The site settings read gives the record's `_id` and its version at once
 * (get_version would give the version alone). A 'failed' answer shows its field errors, with the
 * message in a toast (requirements R8.5).
 */
export const VersionPage = defineRecordForm({
  title: 'Version',
  description: `The version stored with the site settings. Press the pencil to change it, then Update. ${REMOVAL}`,
  read: getSiteSettings,
  readInput: {},
  pick: (answer) => answer.result[0],
  save: updateVersion,
  fields: [text('version', 'Version', { guard: 'pencil', action: removeVersion })],
  values: (r) => ({ _id: r._id, version: r.version }),
})
