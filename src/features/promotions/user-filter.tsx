/**
 * Add promotion's filter step (requirements R2.20): email (a part of an address), provider (ipfs or
 * web3auth) and country (listCountry's names). The applied filter lives in the URL, as the lists'
 * search does, so a reload or Back keeps it; the fields are applied together by Apply.
 */
import { useCallback, useId, useMemo, useState, type FormEvent } from 'react'
import { useLocation, useSearch } from 'wouter'
import { providers, type ProviderName } from '#contract/common'
import type { UserFilter } from '#contract/promotions'
import { listCountry } from '#contract/restrictions'
import { useCall } from '#src/lib/use-call.ts'
import { Button } from '#src/ui/button.tsx'
import { Input } from '#src/ui/input.tsx'
import { Label } from '#src/ui/label.tsx'
import { SearchableSelect } from '#src/ui/searchable-select.tsx'
import { Select } from '#src/ui/select.tsx'

// Radix Select keeps '' for "no value", so "any provider" needs a value of its own.
const ANY = 'any'
const providerOptions = [{ value: ANY, label: 'Any provider' }, ...providers.map((p) => ({ value: p, label: p }))]

const isProvider = (v: string): v is ProviderName => providers.some((p) => p === v)

/** The applied filter, read from and written to the URL (`?email=ann&provider=ipfs&country=France`). */
export function useUserFilter(): [UserFilter, (next: UserFilter) => void] {
  const search = useSearch()
  const [location, navigate] = useLocation()
  const filter = useMemo((): UserFilter => {
    const params = new URLSearchParams(search)
    const provider = params.get('provider') ?? ''
    return { email: params.get('email') ?? '', provider: isProvider(provider) ? provider : '', country: params.get('country') ?? '' }
  }, [search])
  const setFilter = useCallback(
    (next: UserFilter) => {
      const params = new URLSearchParams()
      for (const [key, value] of Object.entries(next)) if (value !== '') params.set(key, value)
      const query = params.toString()
      navigate(query ? `${location}?${query}` : location, { replace: true })
    },
    [location, navigate],
  )
  return [filter, setFilter]
}

export function UserFilterForm({ applied, onApply }: { applied: UserFilter; onApply: (filter: UserFilter) => void }) {
  const [draft, setDraft] = useState<UserFilter>(applied)
  const countries = useCall(listCountry, {}, { revalidateOnFocus: false })
  const countryOptions = useMemo(() => (countries.data?.result ?? []).map((name) => ({ value: name, label: name })), [countries.data])
  const ids = { email: useId(), provider: useId(), country: useId() }

  function apply(event: FormEvent) {
    event.preventDefault()
    onApply({ ...draft, email: draft.email.trim() })
  }
  function reset() {
    const empty: UserFilter = { email: '', provider: '', country: '' }
    setDraft(empty)
    onApply(empty)
  }

  return (
    <form role="search" aria-label="Filter users" onSubmit={apply} className="grid gap-3 rounded-md border border-slate-200 bg-white p-4 md:grid-cols-[1fr_12rem_1fr_auto] md:items-end">
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={ids.email}>Email</Label>
        <Input id={ids.email} type="search" value={draft.email} maxLength={254} placeholder="Any email" onChange={(e) => setDraft({ ...draft, email: e.target.value })} />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={ids.provider}>Provider</Label>
        <Select
          id={ids.provider}
          value={draft.provider === '' ? ANY : draft.provider}
          onValueChange={(v) => setDraft({ ...draft, provider: isProvider(v) ? v : '' })}
          options={providerOptions}
        />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={ids.country}>Country</Label>
        <SearchableSelect
          id={ids.country}
          label="Country"
          value={draft.country}
          onValueChange={(country) => setDraft({ ...draft, country })}
          options={countryOptions}
          placeholder={countries.error ? 'Any country (the list could not load)' : 'Any country'}
        />
      </div>
      <div className="flex gap-2">
        <Button type="submit">Apply</Button>
        <Button variant="outline" onClick={reset}>
          Reset
        </Button>
      </div>
    </form>
  )
}
