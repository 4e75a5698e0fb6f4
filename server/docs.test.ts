/**
 * The repository explains itself only while its documents hold: every relative link of README.md
 * and docs/ leads to a file that exists (and to a heading that exists, when it names one), and
 * every environment variable the server reads (server/config.ts) is in the configuration table of
 * docs/operations.md, so a new variable cannot ship undocumented. Every reason the code gives from
 * the requirements names an item of docs/requirements.md, the one requirements document the
 * repository keeps, and no file cites a document the repository does not hold.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return markdownFiles(path)
    return name.endsWith('.md') ? [path] : []
  })
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-')
}

function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '')
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1] ?? '')))
}

/** The relative targets of `[text](target)` links outside code (web and mail addresses left out). */
function links(file: string): string[] {
  const text = readFileSync(file, 'utf8')
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/`[^`\n]*`/g, '')
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '').filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
}

const documents = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))]

describe('the documents', () => {
  it('link only to files and headings that exist', () => {
    const broken: string[] = []
    for (const file of documents) {
      for (const target of links(file)) {
        const [path = '', anchor] = target.split('#')
        const linked = path === '' ? file : resolve(dirname(file), decodeURIComponent(path))
        const from = relative(root, file)
        if (!existsSync(linked)) broken.push(`${from}: ${target} (no such file)`)
        else if (anchor !== undefined && linked.endsWith('.md') && !anchors(linked).has(anchor)) broken.push(`${from}: ${target} (no such heading)`)
      }
    }
    expect(broken).toEqual([])
  })

  it('document every environment variable the server reads in docs/operations.md', () => {
    const config = readFileSync(join(root, 'server', 'config.ts'), 'utf8')
    const env = /const Env = z\.object\(\{\n([\s\S]*?)\n\}\)/.exec(config)?.[1] ?? ''
    const names = [...env.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1] ?? '')
    expect(names.length).toBeGreaterThan(40)
    const operations = readFileSync(join(root, 'docs', 'operations.md'), 'utf8')
    const table = operations.split('\n').filter((line) => line.startsWith('| `'))
    expect(names.filter((name) => !table.some((row) => row.split('|')[1]?.includes(`\`${name}\``)))).toEqual([])
  })

  it('cite no document outside the repository, and only requirements that exist', () => {
    const requirementsFile = join('docs', 'requirements.md')
    const self = relative(root, fileURLToPath(import.meta.url))
    const files = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter((file) => /\.(ts|tsx|js|md|json|yml|conf|sh)$/.test(file) || file === '.ci/run')
      .filter((file) => file !== self && file !== 'package-lock.json' && existsSync(join(root, file)))
    expect(files.length).toBeGreaterThan(100)
    // The requirements are docs/requirements.md, style and design are stated where they apply, and
    // a decision says what was asked rather than pointing at a tracker the repository does not hold.
    const outside = [/spec sections?\b/i, /\bthe spec\b(?! files?\b)/i, /\b(?:STYLE|DESIGN)\.md\b/, /\/(?:work|home|Users)\/|shared\/spec\//, /\bIssue \d+\b/]
    const requirements = readFileSync(join(root, requirementsFile), 'utf8')
    const items = new Set([...requirements.matchAll(/^(?:#{2,3} |- \*\*)(R\d+(?:\.\d+)?)\b/gm)].map((m) => m[1]))
    expect(items.size).toBeGreaterThan(50)
    const problems: string[] = []
    for (const file of files) {
      const lines = readFileSync(join(root, file), 'utf8').split('\n')
      lines.forEach((line, i) => {
        for (const pattern of outside) if (pattern.test(line)) problems.push(`${file}:${i + 1}: cites ${pattern.exec(line)?.[0]}`)
        if (file === requirementsFile) return
        const cited = [...line.matchAll(/\bR\d+\.\d+\b|(?<=requirements )R\d+\b/g)].map((m) => m[0])
        for (const item of cited) if (!items.has(item)) problems.push(`${file}:${i + 1}: ${item} is not in ${requirementsFile}`)
      })
    }
    expect(problems).toEqual([])
  })
})
