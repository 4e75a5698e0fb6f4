/**
 * vitest's global setup: migrates one template database for the run (template-db.ts) before any
 * test file starts, and removes it when the run ends. The workers start after this and inherit
 * the environment that names it.
 */
import { prepareTemplate } from './template-db.ts'

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  // TEST_TEMPLATE=off makes every database the slow way, to compare or to rule the template out.
  if (process.env['TEST_TEMPLATE'] === 'off') return undefined
  const template = await prepareTemplate(process.env['DATABASE_URL'])
  Object.assign(process.env, template.env)
  return () => template.dispose()
}
