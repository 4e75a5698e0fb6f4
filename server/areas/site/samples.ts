/**
 * The site area's test samples: a payload per endpoint that its handler accepts (server/testing/sample-kit.ts).
 * The contract-wide proofs collect them through server/testing/endpoint-samples.ts, and fail naming this file when one is missing.
 */
import * as settings from '#contract/settings'
import * as version from '#contract/version'
import { defineSamples, unique, png } from '../../testing/sample-kit.ts'

export const samples = defineSamples([settings, version], {
  getSiteSettings: () => ({ json: {} }),
  updateVersion: (f) => ({ json: { _id: f.settingsId, version: `2.${unique()}` } }),
  DeleteVersion: (f) => ({ json: { datas: { _id: f.settingsId, version: '' } } }),
  get_version: () => ({ json: {} }),
  getSettings: () => ({ json: {} }),
  setRestrictedCountryRule: () => ({ json: { on: true } }),
  setOutwardLinkDomains: () => ({ json: { domains: [] } }),
  setFrequencyCap: () => ({ json: { on: false, messages: 3, days: 7 } }),
  updateSettings: () => ({ form: { fields: { sitename: `Site ${unique()}`, email: 'support@example.com', forcedliq: 'Enable' }, files: [{ ...png(), field: 'sitelogo' }] } }),
  setTwoAdminLinks: () => ({ json: { on: false } }),
})
