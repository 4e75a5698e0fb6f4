import { getSettings, socialLinkLabels, updateSettings } from '#contract/settings'
import { email, imageUpload, select, text, textarea, url } from '#src/crud/form-fields.ts'
import { defineRecordForm } from '#src/crud/record-form.tsx'

const forcedLiquidation = [
  { value: 'Enable', label: 'Enable' },
  { value: 'Disable', label: 'Disable' },
]

/**
 * Settings (/settings): every field of spec section 2, the logo with a preview, and Update
 * Settings. The contract checks what has a shape (email, links, phone numbers); the logo is
 * checked by kind here and by content on the server. Without a new logo the current one stays.
 */
export const SettingsPage = defineRecordForm({
  title: 'Settings',
  read: getSettings,
  readInput: {},
  pick: (answer) => answer.result[0],
  save: updateSettings,
  // Paired for the two columns: short fields side by side, long ones across.
  fields: [
    text('contact_person', 'Contact Person', { autoComplete: 'name' }),
    email('email', 'Email', { autoComplete: 'email' }),
    text('phone_number', 'Phone Number', { autoComplete: 'tel' }),
    text('mobile_number', 'Mobile Number', { autoComplete: 'tel' }),
    text('sitename', 'Site Name'),
    text('reg_code', 'Register Code'),
    textarea('site_description', 'Site Description'),
    textarea('address', 'Address', { autoComplete: 'street-address' }),
    url('company_info_link', 'Company Information Link'),
    url('license_info_link', 'Wallet License Information Link'),
    url('social_link1', socialLinkLabels.social_link1),
    url('social_link2', socialLinkLabels.social_link2),
    url('social_link3', socialLinkLabels.social_link3),
    url('social_link4', socialLinkLabels.social_link4),
    url('social_link5', socialLinkLabels.social_link5),
    text('copyright_text', 'Copyright Text'),
    select('forcedliq', 'Forced Liquidation', forcedLiquidation),
    imageUpload('sitelogo', 'Site Logo'),
  ],
  // Every stored field but the id, the version (saved on its own screen) and the logo (a file).
  values: ({ _id, version: _version, sitelogo: _sitelogo, ...fields }) => fields,
  files: (r) => ({ sitelogo: r.sitelogo }),
  submitLabel: 'Update Settings',
  columns: 2,
})
