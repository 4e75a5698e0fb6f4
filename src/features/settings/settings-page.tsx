import { useState } from 'react'
import { getSettings, setOutwardLinkDomains, setRestrictedCountryRule, setTwoAdminLinks, socialLinkLabels, updateSettings } from '#contract/settings'
import { errorMessage } from '#src/crud/form/error-message.ts'
import { email, imageUpload, select, text, textarea, url } from '#src/crud/form/form-fields.ts'
import { defineRecordForm } from '#src/crud/record/record-form.tsx'
import { call } from '#src/lib/api.ts'
import { useSession } from '#src/lib/session.ts'
import { useCall } from '#src/lib/use-call.ts'
import { Button } from '#src/ui/button.tsx'
import { Label } from '#src/ui/label.tsx'
import { Textarea } from '#src/ui/textarea.tsx'
import { toast } from '#src/ui/toast.ts'
import { FrequencyCapSection } from './frequency-cap.tsx'
import { SettingsSection } from './settings-section.tsx'

const forcedLiquidation = [
  { value: 'Enable', label: 'Enable' },
  { value: 'Disable', label: 'Disable' },
]

/** Where the five links of this screen sit, against the Social Links screen's five (requirements R2.17, R2.34, R3.13). */
const LINKS_NOTE =
  'These five (Twitter, Medium, Telegram, Facebook, Linkedin) are kept with the site settings. The Social Links screen keeps a separate set of five (Discord, Facebook, Twitter, Instagram, Telegram); saving one set leaves the other as it is.'

/**
 * Settings (/settings): every field of requirements R2.34 in titled sections, the logo with a preview,
 * and Update Settings in a bar kept in view. The contract checks what has a shape (email, links,
 * phone numbers); the logo is checked by kind here and by content on the server. Without a new
 * logo the current one stays.
 */
const SiteSettingsForm = defineRecordForm({
  title: 'Settings',
  read: getSettings,
  readInput: {},
  pick: (answer) => answer.result[0],
  save: updateSettings,
  fields: [
    text('contact_person', 'Contact Person', { autoComplete: 'name' }),
    email('email', 'Email', { autoComplete: 'email' }),
    text('phone_number', 'Phone Number', { autoComplete: 'tel' }),
    text('mobile_number', 'Mobile Number', { autoComplete: 'tel' }),
    textarea('address', 'Address', { autoComplete: 'street-address' }),
    text('sitename', 'Site Name'),
    textarea('site_description', 'Site Description'),
    imageUpload('sitelogo', 'Site Logo'),
    url('social_link1', socialLinkLabels.social_link1),
    url('social_link2', socialLinkLabels.social_link2),
    url('social_link3', socialLinkLabels.social_link3),
    url('social_link4', socialLinkLabels.social_link4),
    url('social_link5', socialLinkLabels.social_link5),
    text('reg_code', 'Register Code'),
    text('copyright_text', 'Copyright Text'),
    url('company_info_link', 'Company Information Link'),
    url('license_info_link', 'Wallet License Information Link'),
    select('forcedliq', 'Forced Liquidation', forcedLiquidation, {
      // The requirements define the setting only as forced liquidation, Enable or Disable: say no more than that.
      hint: 'Enable turns forced liquidation on; Disable turns it off.',
    }),
  ],
  // Paired for the two columns: short fields side by side, long ones across.
  sections: [
    { title: 'Contact', fields: ['contact_person', 'email', 'phone_number', 'mobile_number', 'address'] },
    { title: 'Site', fields: ['sitename', 'site_description', 'sitelogo'] },
    { title: 'Links', description: LINKS_NOTE, fields: ['social_link1', 'social_link2', 'social_link3', 'social_link4', 'social_link5'] },
    { title: 'Legal', fields: ['reg_code', 'copyright_text', 'company_info_link', 'license_info_link'] },
    { title: 'Trading', fields: ['forcedliq'] },
  ],
  // Every stored field but the id, the version (saved on its own screen) and the logo (a file).
  values: ({ _id, version: _version, sitelogo: _sitelogo, restricted_country_rule: _rule, frequency_cap: _cap, outward_link_domains: _domains, two_admin_links: _twoAdmins, ...fields }) => fields,
  files: (r) => ({ sitelogo: r.sitelogo }),
  submitLabel: 'Update Settings',
  columns: 2,
})

/**
 * The restricted-country rule of mass sends (requirements R2.37): on by default; the superadmin
 * may turn it off (the server asks for a recent proof of identity and audits the change). Others
 * read where it stands.
 */
function CountryRule() {
  const session = useSession()
  const { data, mutate } = useCall(getSettings, {})
  const [busy, setBusy] = useState(false)
  const on = data?.result[0]?.restricted_country_rule
  if (on === undefined) return null
  async function change(next: boolean) {
    setBusy(true)
    try {
      const answer = await call(setRestrictedCountryRule, { on: next })
      toast.success(answer.message)
      await mutate()
    } catch (error) {
      toast.error(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <SettingsSection title="Restricted countries in sends">
      <p role="status">
        {on
          ? 'On: promotions and newsletters leave out the leads whose country is on the Restriction List (and not hidden).'
          : 'Off: leads in restricted countries receive promotions and newsletters.'}
      </p>
      {session.role === 'superadmin' ? (
        <div>
          <Button variant={on ? 'outline' : 'default'} disabled={busy} aria-busy={busy} onClick={() => void change(!on)}>
            {on ? 'Turn the rule off' : 'Turn the rule on'}
          </Button>
        </div>
      ) : (
        <p className="text-slate-600">Only the superadmin can change this.</p>
      )}
    </SettingsSection>
  )
}

/**
 * The domains outward links may lead to (buy and swap links, game live links, homepage content,
 * social and legal links): the superadmin edits the list, one domain a line, after a recent proof
 * of identity; everyone else reads it. The server refuses any other host on every such write.
 */
function LinkDomains() {
  const session = useSession()
  const { data, mutate } = useCall(getSettings, {})
  const stored = data?.result[0]?.outward_link_domains
  const [draft, setDraft] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState('')
  const storedText = stored?.join('\n') ?? ''
  // The list as last read fills the box again whenever the stored list changes (a save, another tab).
  const [shown, setShown] = useState<string | null>(null)
  if (stored !== undefined && shown !== storedText) {
    setShown(storedText)
    setDraft(storedText)
  }
  if (stored === undefined) return null
  const editable = session.role === 'superadmin'
  async function save() {
    setBusy(true)
    setError('')
    try {
      const answer = await call(setOutwardLinkDomains, { domains: draft.split(/[\n,]/).map((d) => d.trim()).filter((d) => d !== '') })
      toast.success(answer.message)
      await mutate()
    } catch (failure) {
      setError(errorMessage(failure))
    } finally {
      setBusy(false)
    }
  }
  return (
    <SettingsSection title="Allowed domains for outward links">
      <p role="status">
        {stored.length === 0
          ? 'Any domain: buy, swap, game, homepage, social and legal links may lead anywhere.'
          : `${stored.length} allowed: links users follow must lead to one of these (a saved link to another host is refused).`}
      </p>
      <p className="text-slate-600">One domain a line. example.com allows that host only; *.example.com allows it and every subdomain. An empty list allows every host. Links already saved stay as they are.</p>
      {editable ? (
        <form
          className="flex flex-col gap-2"
          onSubmit={(event) => {
            event.preventDefault()
            void save()
          }}
        >
          <Label htmlFor="link-domains-list">Domains</Label>
          <Textarea id="link-domains-list" rows={4} value={draft} onChange={(event) => setDraft(event.target.value)} aria-invalid={error !== ''} aria-describedby={error === '' ? undefined : 'link-domains-error'} spellCheck={false} />
          <p id="link-domains-error" role="alert" className="min-h-5 text-red-700">
            {error}
          </p>
          <div>
            <Button type="submit" disabled={busy || draft === storedText} aria-busy={busy}>
              Save domains
            </Button>
          </div>
        </form>
      ) : (
        <>
          {stored.length === 0 ? null : (
            <ul className="list-inside list-disc">
              {stored.map((domain) => (
                <li key={domain}>{domain}</li>
              ))}
            </ul>
          )}
          <p className="text-slate-600">Only the superadmin can change this.</p>
        </>
      )}
      <TwoAdminLinks on={data?.result[0]?.two_admin_links ?? false} onChanged={() => void mutate()} />
    </SettingsSection>
  )
}

/**
 * "Two admins for outward links", beside the allowed domains: while on, a save that changes a link
 * users follow waits on Link changes until another admin approves it. The superadmin turns it on
 * or off (after a recent proof of identity, audited); everyone else reads where it stands.
 */
function TwoAdminLinks({ on, onChanged }: { on: boolean; onChanged: () => void }) {
  const session = useSession()
  const [busy, setBusy] = useState(false)
  async function change(next: boolean) {
    setBusy(true)
    try {
      const answer = await call(setTwoAdminLinks, { on: next })
      toast.success(answer.message)
      onChanged()
    } catch (error) {
      toast.error(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="flex flex-col gap-2 border-t border-slate-200 pt-3">
      <h3 className="font-medium text-slate-900">Two admins for outward links</h3>
      <p role="status">
        {on
          ? 'On: a save that changes a link users follow waits on Link changes until another admin approves it; until then the old link stays.'
          : 'Off: a saved link takes effect at once.'}
      </p>
      {session.role === 'superadmin' ? (
        <div>
          <Button variant={on ? 'outline' : 'default'} disabled={busy} aria-busy={busy} onClick={() => void change(!on)}>
            {on ? 'Turn two admins off' : 'Turn two admins on'}
          </Button>
        </div>
      ) : (
        <p className="text-slate-600">Only the superadmin can change this.</p>
      )}
    </div>
  )
}

/** Settings (/settings): the site settings form, the rules of sends (restricted countries, the frequency cap), and the allowed link domains. */
export function SettingsPage() {
  return (
    <>
      <SiteSettingsForm />
      <CountryRule />
      <FrequencyCapSection />
      <LinkDomains />
    </>
  )
}
