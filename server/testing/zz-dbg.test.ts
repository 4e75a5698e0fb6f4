import { it } from 'vitest'
import { endpoints } from '#contract/index'
import { makeTestApp } from './test-app.ts'
import { makeFixtures, samples, send } from './endpoint-samples.ts'
it('dbg', async () => {
  const t = await makeTestApp()
  const f = await makeFixtures(t)
  const e = endpoints.find((x) => x.name === 'editTemplate')
  const s = samples['editTemplate']?.(f)
  if (e === undefined || s === undefined || !('json' in s)) return
  for (const subject of ['<img src=x onerror=window.__xss=1>', 'plain']) {
    const r = await send(t, e, await t.auth(t.superadmin), { json: { ...s.json, subject } })
    console.log('ANSWER', r.statusCode, r.body.slice(0, 300))
  }
  await t.close()
}, 600_000)
