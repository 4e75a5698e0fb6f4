/**
 * Brand List, Add Brand and Edit Brand (requirements R2.23, R3.10, R5.10, R6.5): brandname and a Type of
 * web3auth or ipfs. View opens View Brand (/view-brand, a page of its own); Edit and Delete are
 * Admin only. Edit reads its record from the list's history state, else through listbrandUser.
 */
import { Brand, addBrand, deleteBrand, editbrandUser, listbrand, listbrandUser } from '#contract/brands'
import { col, serial } from '#src/crud/list/columns.tsx'
import { providers } from '#contract/common'
import { defineForm } from '#src/crud/form/define-form.tsx'
import { defineList } from '#src/crud/list/define-list.tsx'
import { brandsBulk } from '#contract/bulk'
import { select, text } from '#src/crud/form/form-fields.ts'

/** Requirements R9.7: the brand types. */
const brandTypes = providers.map((p) => ({ value: p, label: p }))

const fields = [text('brandname', 'Brand Name'), select('type', 'Type', brandTypes)] as const

export const BrandListPage = defineList({
  title: 'Brand List',
  empty: { says: 'Brands name who a referral link belongs to: each brand holds its referral links.', addFirst: 'Create the first brand' },
  route: '/brand',
  endpoint: listbrand,
  columns: [serial(), col('brandname', 'Brand Name'), col('type', 'Type')],
  add: { to: '/addbrand' },
  viewPage: '/view-brand',
  edit: '/edit-brand',
  remove: { endpoint: deleteBrand, confirm: 'Are you sure you want to remove this Brand' },
  serverBulk: brandsBulk,
})

export const AddBrandPage = defineForm({
  title: 'Add Brand',
  endpoint: addBrand,
  fields,
  done: '/brand',
})

export const EditBrandPage = defineForm({
  title: 'Edit Brand',
  endpoint: editbrandUser,
  fields,
  done: '/brand',
  record: {
    get: listbrandUser,
    input: (id) => ({ id }),
    pick: (answer) => answer.record,
    schema: Brand,
    values: (b) => ({ _id: b._id, brandname: b.brandname, type: b.type, version: b.version }),
  },
})
