import { getSettings, socialLinkLabels, updateSettings } from '#contract/settings'
import { email, imageUpload, select, text, textarea, url } from '#src/crud/form-fields.ts'
import { defineRecordForm } from '#src/crud/record-form.tsx'

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
export const SettingsPage = defineRecordForm({
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
  values: ({ _id, version: _version, sitelogo: _sitelogo, ...fields }) => fields,
  files: (r) => ({ sitelogo: r.sitelogo }),
  submitLabel: 'Update Settings',
  columns: 2,
})
