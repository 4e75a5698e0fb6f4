import { deleteHomePageCms, listHomePageCms, type HomepageContent } from '#contract/homepage'
import { linkHref } from '#contract/outward-links'
import { col, image, serial, type CustomColumn } from '#src/crud/list/columns.tsx'
import { defineList } from '#src/crud/list/define-list.tsx'
import { homepageBulk } from '#contract/bulk'
import { LandingPageSwitch } from './landing-page-switch.tsx'

/** The link, openable, and wrapped rather than pushing the Image column out of sight. */
const linkColumn: CustomColumn<HomepageContent> = {
  header: 'Link',
  sortBy: 'link',
  cell: (row) => (
    <a href={linkHref(row.link)} target="_blank" rel="noopener noreferrer" className="block max-w-[22rem] break-all text-indigo-800 underline-offset-2 hover:underline">
      {row.link}
    </a>
  ),
}

/**
 * Homepage Content List (/homepage-content): S.No, Title, Link and the image thumbnail, paged.
 * Admin only: the landing-page switch, Add, and edit and delete per row (delete takes `{_id}`).
 */
export const HomepageContentPage = defineList({
  // Requirements R2.30 names the list so; the menu and the Access options say Home Page Content.
  title: 'Homepage Content List',
  empty: { says: 'The blocks the wallet shows on its home page, each with its link.', addFirst: 'Create the first block' },
  endpoint: listHomePageCms,
  columns: [serial(), col('title', 'Title'), linkColumn, image('image', 'Image', 'title', 'thumbnail')],
  toolbar: LandingPageSwitch,
  add: { to: '/add-homepage-content', label: 'Add' },
  edit: '/edit-homepage-content',
  remove: { endpoint: deleteHomePageCms, confirm: 'Are you sure you want to remove this content', payload: (row) => ({ _id: row._id }) },
  serverBulk: homepageBulk,
})
