/**
 * The emails listed under a brand (View Brand): 2 at first and 2 more per "Load More..." (requirements
 * R9.3), as the kit's Load More list. The first page is View Brand's own listbrandUser
 * answer; each further page is its own call.
 */
import { BRAND_EMAILS_STEP, listbrandUser } from '#contract/brands'
import type { Output } from '#contract/define'
import { LoadMoreList } from '#src/crud/list/load-more-list.tsx'

export function BrandEmails({ id, first }: { id: string; first: Output<typeof listbrandUser> }) {
  return (
    <LoadMoreList
      label="Emails"
      endpoint={listbrandUser}
      input={(page) => ({ id, page, limit: BRAND_EMAILS_STEP })}
      pick={(answer) => ({ items: answer.result, count: answer.count })}
      itemKey={(e, index) => `${e.email}-${index}`}
      render={(e) => e.email}
      moreLabel="Load More..."
      step={BRAND_EMAILS_STEP}
      first={first}
    />
  )
}
