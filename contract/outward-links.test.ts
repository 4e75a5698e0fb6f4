import { describe, expect, it } from 'vitest'
import { domainEntry, hostAllowed, hostOf, outwardLinkFields } from './outward-links.ts'
import { contractModules, endpointsOf } from './testing/endpoint-table.ts'

describe('allowed-domain entries', () => {
  it('keeps a host or a wildcard, lower-cased, its trailing dot dropped', () => {
    expect(domainEntry(' MoonPay.example. ')).toBe('moonpay.example')
    expect(domainEntry('*.Transak.example')).toBe('*.transak.example')
  })

  it('keeps an international name in the ASCII form a browser resolves', () => {
    expect(domainEntry('bücher.example')).toBe('xn--bcher-kva.example')
  })

  it('refuses what is not a domain', () => {
    for (const bad of ['', 'localhost', 'https://moonpay.example', 'moonpay.example/buy', 'a b.example', 'user@host.example', '*.', '-bad.example', 'host.example:443', '**.example.com'])
      expect(domainEntry(bad), bad).toBeNull()
  })
})

describe('a link and the list', () => {
  it('reads the host of a link with or without its scheme', () => {
    expect(hostOf('https://Buy.MoonPay.example/wallet?x=1')).toBe('buy.moonpay.example')
    expect(hostOf('www.transak.example/buy')).toBe('www.transak.example')
    expect(hostOf('')).toBeNull()
  })

  it('allows every host while the list is empty', () => {
    expect(hostAllowed('anything.example', [])).toBe(true)
  })

  it('allows a listed host only, and a wildcard its domain and every subdomain', () => {
    const list = ['moonpay.example', '*.transak.example']
    expect(hostAllowed('moonpay.example', list)).toBe(true)
    expect(hostAllowed('buy.moonpay.example', list)).toBe(false)
    expect(hostAllowed('transak.example', list)).toBe(true)
    expect(hostAllowed('a.b.transak.example', list)).toBe(true)
    // A look-alike that only ends with the same letters is another domain.
    expect(hostAllowed('eviltransak.example', list)).toBe(false)
    expect(hostAllowed('transak.example.evil.example', list)).toBe(false)
    // A user name before the host does not make it the host.
    expect(hostAllowed(hostOf('https://moonpay.example@evil.example/') ?? '', list)).toBe(false)
  })
})

describe('the outward-link fields of the contract', () => {
  it('are found from the schemas: every URL field users follow, and no other field', async () => {
    const found = endpointsOf(await contractModules(import.meta.dirname))
      .flatMap((e) => outwardLinkFields(e.input).map((field) => `${e.name}.${field}`))
      .sort()
    // The links of requirements R3 (buy and swap links, games, homepage content, social links, the
    // settings' links): a URL field added to the contract is found without being listed here.
    expect(found).toEqual(expect.arrayContaining(['addbuyLink.buylink', 'editSellink.selLink', 'addBridgeLink.bridgelink', 'addcms.liveLink', 'Editcms.liveLink', 'addHomePageCms.link', 'updateSettings.social_link1', 'updateSettings.company_info_link', 'updatesocialmedia.discordLink']))
    for (const entry of found) expect(entry).toMatch(/link|Link|url|Url/)
  })
})
