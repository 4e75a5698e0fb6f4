import { z } from 'zod/mini'
import { Done, Id, ok, required } from './common.ts'
import { endpoint, nameEndpoints, reads, writes } from './define.ts'
import { SiteSettings } from './settings.ts'
import { Deleted } from './undo.ts'
import * as self from './version.ts'

/*
 * The Version screen. Its calls treat status 'failed' as an error and show field errors when
 * present (requirements R8.5), which the shared Failure answer already covers.
 */

/** The requirements give no message for an empty version; ours is 'version is required'. */
const Version = required('version is required', 50)

/** The site settings read of the Version screen: result[0] holds _id and version. */
export const getSiteSettings = endpoint({
  method: 'GET',
  input: z.object({}),
  output: ok({ result: z.array(z.pick(SiteSettings, { _id: true, version: true })) }),
  access: reads('/version'),
  ours: 'Path not shown: /getSiteSettings.',
})

export const updateVersion = endpoint({
  logAs: 'Version updated',
  method: 'POST',
  input: z.object({ _id: Id, version: Version }),
  output: Done,
  access: writes('/version'),
})

/** The trash button: clears the version of the record named by `datas._id`; its undo writes it back. */
export const DeleteVersion = endpoint({
  logAs: 'Version deleted',
  method: 'POST',
  input: z.object({ datas: z.object({ _id: Id }, { error: 'Incorrect format' }) }),
  output: Deleted,
  access: writes('/version'),
  ours: 'datas is the screen record; only its _id is read.',
})

/** The current version alone ('' when cleared). */
export const get_version = endpoint({
  method: 'POST',
  input: z.object({}),
  output: ok({ data: z.object({ version: z.string() }) }),
  access: reads('/version'),
  ours: 'Payload and answer not shown: no payload; data.version.',
})

// Each endpoint is named by its export (its path defaults to '/' + that name).
nameEndpoints(self)
