/**
 * The side menu's header: the site name and logo set on the Settings screen (requirements R3.13),
 * read from the public configuration every deployment serves. 'Back Office' until a name is set;
 * the logo only once one is uploaded.
 */
import { publicInfo } from '#contract/public'
import { assetUrl } from '#src/lib/api.ts'
import { useCall } from '#src/lib/use-call.ts'

const DEFAULT_NAME = 'Back Office'

export function SiteHeader() {
  // Kept in the offline cache with the screens' data; a Settings save refetches it (every cached
  // answer is refetched after a write), so the header follows without a reload.
  const { data } = useCall(publicInfo, {}, { frame: true, revalidateOnFocus: false })
  const name = data?.data.sitename.trim() || DEFAULT_NAME
  const logo = data?.data.sitelogo ?? ''
  return (
    <div className="flex min-h-13 items-center gap-3 px-6 pt-5 text-lg leading-snug font-semibold text-white">
      {logo ? <img src={assetUrl(logo)} alt={name} className="size-8 shrink-0 rounded bg-white object-contain" /> : null}
      {/* With a logo, its alt text already gives the name to screen readers. */}
      <span className="line-clamp-2 min-w-0 break-words" aria-hidden={logo ? true : undefined}>
        {name}
      </span>
    </div>
  )
}
