/**
 * The PWA build: base /admin/ (requirements R9.8), React, Tailwind, and the service worker from
 * sw/sw.ts (vite-plugin-pwa, injectManifest: our own worker, with the precache list injected).
 * `npm run dev` proxies the API, uploads and socket.io to the server on :8080.
 */
import { createHash } from 'node:crypto'
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { build, createServer, defineConfig, type Plugin, type Rolldown } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { VitePWA } from 'vite-plugin-pwa'
import { nameAtBuild } from './contract/build-names.ts'

/** What the server puts in each served shell's CSP header and in the page (server/pwa.ts). */
const NONCE_PLACEHOLDER = '__CSP_NONCE__'

const zodAlias = { find: /^zod\/mini$/, replacement: fileURLToPath(new URL('./src/lib/zod-setup.ts', import.meta.url)) }

/**
 * Writes .br and .gz beside every JS, CSS, SVG and manifest file, at the highest levels, once per
 * build: the server sends them to browsers that accept them (@fastify/static `preCompressed`)
 * without compressing on each request. Every file gets both, the smallest chunks included: a file
 * without them is sent as it is, and "served compressed" must hold for every asset.
 * Runs last (after the service worker is written). The HTML shells are left out: the server
 * puts a fresh nonce in each one it sends and compresses them then.
 */
function precompress(): Plugin {
  const TEXT = /\.(js|css|svg|webmanifest)$/
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name)
      return statSync(path).isDirectory() ? walk(path) : [path]
    })
  let outDir = 'dist'
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        for (const file of walk(outDir)) {
          if (!TEXT.test(file)) continue
          const body = readFileSync(file)
          writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }))
          writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
        }
      },
    },
  }
}

/**
 * The prerendered login's only script in the document: it adds the app's module script (`entry`, the
 * built index.html's) once the markup has been painted (a frame, then a task), so fetching and
 * running the code never holds up that first paint.
 */
const loginBoot = (entry: string): string =>
  `requestAnimationFrame(()=>setTimeout(()=>{const s=document.createElement("script");s.type="module";s.src=${JSON.stringify(entry)};document.head.append(s)}))\n`

/**
 * A build-only plugin whose work runs once the bundle is written, in turn with the others (the
 * order of the plugins list), knowing where the build went.
 */
function afterWrite(name: string, work: (at: { outDir: string; root: string; base: string }) => Promise<void>): Plugin {
  const at = { outDir: 'dist', root: process.cwd(), base: '/' }
  return {
    name,
    apply: 'build',
    configResolved(config) {
      at.outDir = config.build.outDir
      at.root = config.root
      at.base = config.base
    },
    writeBundle: { sequential: true, handler: () => work(at) },
  }
}

/**
 * The login screen painted before its code runs: renders the real App at /admin/login
 * with react-dom/static (the lazy login chunk resolved) and writes `login.html`: the built
 * index.html with that markup in #root and the stylesheet inlined, so the first paint needs no
 * request after the document. main.tsx hydrates it; the server (and the service worker, which
 * precaches both shells) send it for /admin/login only, so no other route shows a login form
 * first. index.html itself gets the loading state (src/app/loading.tsx) in #root, so every other
 * route paints that before its code has arrived. Runs in writeBundle, before the service
 * worker's precache list is made.
 */
function prerenderLogin(): Plugin {
  return afterWrite('prerender-login', async ({ outDir, root, base }) => {
    const server = await createServer({
      configFile: false,
      root,
      base,
      mode: 'production',
      logLevel: 'error',
      appType: 'custom',
      server: { middlewareMode: true, hmr: false, ws: false, watch: null },
      optimizeDeps: { noDiscovery: true, include: [] },
      resolve: { alias: [zodAlias] },
      plugins: [react()],
    })
    let markup: string
    let loading: string
    try {
      const module: { prerenderRoute?: (path: string) => Promise<string>; loadingMarkup?: () => string } = await server.ssrLoadModule('/src/app/prerender.tsx')
      if (typeof module.prerenderRoute !== 'function' || typeof module.loadingMarkup !== 'function') {
        throw new Error('src/app/prerender.tsx exports no prerenderRoute or loadingMarkup')
      }
      markup = await module.prerenderRoute(`${base}login`)
      loading = module.loadingMarkup()
    } finally {
      await server.close()
    }
    if (!markup.includes('<form')) throw new Error('the prerendered login has no form')
    const index = readFileSync(join(outDir, 'index.html'), 'utf8')
    const stylesheet = /<link rel="stylesheet"[^>]*? href="([^"]+)"[^>]*>/.exec(index)
    if (!stylesheet?.[1]?.startsWith(base)) throw new Error('index.html links no stylesheet under the base')
    const css = readFileSync(join(outDir, stylesheet[1].slice(base.length)), 'utf8')
    if (css.includes('</style')) throw new Error('the stylesheet cannot be inlined')
    if (!index.includes('<div id="root"></div>')) throw new Error('index.html has no empty #root')
    // The markup paints without the code, so the code is asked for once it has painted: a
    // small classic script (loginBoot) adds the module script after the first frame, and
    // the document and its inlined styles have a slow link to themselves until then.
    const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\n?/.exec(index)
    if (entry?.[1] === undefined) throw new Error('index.html loads no module script')
    const boot = loginBoot(entry[1])
    const bootName = `assets/login-boot-${createHash('sha256').update(boot).digest('hex').slice(0, 8)}.js`
    writeFileSync(join(outDir, bootName), boot)
    // The link stays, disabled (never fetched, never applied): the loader of a lazy chunk that
    // lists the stylesheet among its needs (the signed-in area, after a login) finds it in the
    // page and does not fetch it and add it a second time.
    const login = index
      .replace(stylesheet[0], () => `<style nonce="${NONCE_PLACEHOLDER}">${css}</style>\n    ${stylesheet[0].replace(/>$/, ' disabled>')}`)
      .replace(entry[0], () => `<script defer src="${base}${bootName}"></script>\n`)
      // The entry imports what these preload; fetched with it, after the paint.
      .replace(/<link rel="modulepreload"[^>]*>\n?/g, '')
      .replace('<div id="root"></div>', () => `<div id="root" data-prerendered="/login">${markup}</div>`)
    writeFileSync(join(outDir, 'login.html'), login)
    // Every other route paints its loading state from the document while its code loads.
    writeFileSync(join(outDir, 'index.html'), index.replace('<div id="root"></div>', () => `<div id="root">${loading}</div>`))
  })
}

/**
 * The signed-in shell's early calls (src/lib/early-calls.ts): src/boot/early-calls.ts
 * built on its own as a small classic script, written under assets/ with its hash and added to
 * index.html before the app's module script, deferred: it runs as soon as it has arrived and the
 * document is parsed, before the app's code, and sends the page's first calls and asks for its
 * scripts while the entry is still on its way. A file, not inline: the policy allows no inline script (server/pwa.ts).
 * Runs after prerenderLogin, so the login shell, which has no session to call with, has none.
 */
function earlyCallsScript(): Plugin {
  return afterWrite('early-calls-script', async ({ outDir, root, base }) => {
    const built = await build({
      configFile: false,
      root,
      base,
      mode: 'production',
      logLevel: 'warn',
      resolve: { alias: [zodAlias] },
      build: {
        write: false,
        emptyOutDir: false,
        target: 'es2022',
        minify: true,
        lib: { entry: join(root, 'src/boot/early-calls.ts'), formats: ['iife'], name: 'backOfficeEarlyCalls' },
      },
    })
    const outputs = (Array.isArray(built) ? built : [built]).flatMap((b) => ('output' in b ? b.output : []))
    const chunk = outputs.find((o) => o.type === 'chunk')
    if (chunk?.type !== 'chunk' || outputs.length !== 1) throw new Error('early-calls-script: expected one chunk')
    const name = `assets/early-calls-${createHash('sha256').update(chunk.code).digest('hex').slice(0, 8)}.js`
    writeFileSync(join(outDir, name), chunk.code)
    const index = readFileSync(join(outDir, 'index.html'), 'utf8')
    const entry = /<script type="module" crossorigin src="[^"]+"><\/script>/.exec(index)
    if (entry === null) throw new Error('early-calls-script: index.html loads no module script')
    writeFileSync(join(outDir, 'index.html'), index.replace(entry[0], () => `<script defer src="${base}${name}"></script>\n    ${entry[0]}`))
  })
}

/**
 * Fewer requests for a signed-in visit's first load. Left to itself the bundler cut
 * what the first list screen needs into some 35 chunks, many under 1 KiB; over HTTP/1.1 a
 * browser takes six at a time, so on a slow link each six cost a round trip before the screen
 * could ask for its data; and each small chunk costs its own imports and compression, about a
 * tenth of a KiB. Four chunks gather them instead, from the module graph once it is known:
 * - `shell`: what the login page and a signed-in list both load beside the entry (the button and
 *   input, the offline copy's keys, the online state, the service worker's registration);
 * - `signed-in`: what the signed-in area (src/app/private-area.tsx) imports;
 * - `list-kit`: what every list screen adds (src/crud/list/define-list.tsx);
 * - `common`: what those share with the pages of a visitor without a session (the login's
 *   checks, the public pages, Not Found): zod, the API client, SWR. Those pages load it too.
 * None but `shell` takes a module the login page or the start-up's wipe of an old offline copy
 * (main.tsx) needs before anyone acts, so the login loads none of the others; none takes a module
 * the entry imports.
 */
const VISITOR = /[\\/]src[\\/](features[\\/](auth|public)[\\/]|app[\\/]not-found\.tsx$)/
const ZOD_LOCALES = /[\\/]zod[\\/]v4[\\/]locales[\\/]/
const EAGER_VISITOR = ['/src/features/auth/login-page.tsx', '/src/lib/offline-store.ts']
function firstLoadChunks(): { plugin: Plugin; groups: Rolldown.CodeSplittingGroup[] } {
  let area = new Set<string>()
  let kit = new Set<string>()
  let common = new Set<string>()
  let shell = new Set<string>()
  const plugin: Plugin = {
    name: 'first-load-chunks',
    apply: 'build',
    buildEnd() {
      const ids = [...this.getModuleIds()]
      const closure = (roots: readonly string[], skip: ReadonlySet<string>): Set<string> => {
        const seen = new Set<string>()
        const queue = [...roots]
        for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
          if (seen.has(id) || skip.has(id)) continue
          seen.add(id)
          queue.push(...(this.getModuleInfo(id)?.importedIds ?? []))
        }
        return seen
      }
      const find = (suffix: string): string => {
        const id = ids.find((i) => i.endsWith(suffix))
        if (id === undefined) throw new Error(`first-load-chunks: no module ${suffix}`)
        return id
      }
      const initial = closure(
        ids.filter((id) => this.getModuleInfo(id)?.isEntry === true),
        new Set(),
      )
      const eager = closure(EAGER_VISITOR.map(find), initial)
      const visitor = closure(
        ids.filter((id) => VISITOR.test(id)),
        initial,
      )
      const signedIn = closure([find('/src/app/private-area.tsx'), find('/src/crud/list/define-list.tsx')], new Set([...initial, ...eager]))
      // What both a signed-in list and the login load, and the worker's registration, which every page loads.
      const everySignedIn = closure([find('/src/app/private-area.tsx'), find('/src/crud/list/define-list.tsx')], initial)
      shell = new Set([...[...eager].filter((id) => everySignedIn.has(id)), ...closure([find('/src/app/sw-register.ts')], initial)])
      common = new Set([...signedIn].filter((id) => visitor.has(id)))
      const outside = new Set([...initial, ...eager, ...visitor])
      area = closure([find('/src/app/private-area.tsx')], outside)
      kit = closure([find('/src/crud/list/define-list.tsx')], new Set([...outside, ...area]))
    },
  }
  // Only the modules listed: a module's other imports stay where they are (the entry's in the entry).
  const only = { includeDependenciesRecursively: false }
  // zod/mini's index names every locale, so the graph puts them in the first load; the forms use
  // the English one (src/lib/zod-messages.ts), which then goes with them.
  const mine = (set: () => ReadonlySet<string>) => (id: string) => set().has(id) && !ZOD_LOCALES.test(id)
  const groups: Rolldown.CodeSplittingGroup[] = [
    { name: 'shell', test: mine(() => shell), priority: 4, ...only },
    { name: 'signed-in', test: mine(() => area), priority: 3, ...only },
    { name: 'list-kit', test: mine(() => kit), priority: 2, ...only },
    { name: 'common', test: mine(() => common), priority: 1, ...only },
  ]
  return { plugin, groups }
}

/**
 * Endpoints named where they are declared in the browser build, so a page's bundle carries only
 * the endpoints (and their zod schemas) it calls: contract/build-names.ts, with the test that
 * holds the rewritten contract to the same names, methods and paths.
 */
function contractNames(): Plugin {
  return {
    name: 'contract-names',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]contract[\\/][^\\/]+\.ts$/.test(id)) return null
      const named = nameAtBuild(code)
      // Lines keep their numbers (build-names.ts), so the source's map still holds.
      return named === null ? null : { code: named, map: null }
    },
  }
}

/**
 * The realtime link is WebSocket only, on both sides (contract/socket.ts). engine.io-client still
 * bundles long polling and WebTransport (2.1 KiB gzip of Leads' first load) because its socket
 * keeps a table of every transport for when none is named, and its index exports them. In the
 * browser build its transport table holds WebSocket alone, and its index exports the others as
 * undefined; the build stops if a new version exports a name this does not know.
 */
const ENGINE_IO = /[\\/]engine\.io-client[\\/]build[\\/]esm[\\/]/
const ENGINE_IO_DROPPED = ['Fetch', 'NodeXHR', 'XHR', 'NodeWebSocket', 'WebTransport']
const ENGINE_IO_KEPT = ['Socket', 'protocol', 'Transport', 'TransportError', 'transports', 'installTimerFunctions', 'parse', 'nextTick', 'WebSocket']
function websocketOnly(): Plugin {
  return {
    name: 'websocket-only',
    apply: 'build',
    load(id) {
      if (!ENGINE_IO.test(id)) return null
      if (id.endsWith('/transports/index.js')) return 'import { WS } from "./websocket.js";\nexport const transports = { websocket: WS };\n'
      if (!/[\\/]esm[\\/]index\.js$/.test(id)) return null
      const source = readFileSync(id, 'utf8')
      const exported = [...source.matchAll(/^export (?:const (\w+)|\{([^}]+)\})/gm)].flatMap((m) =>
        m[1] !== undefined ? [m[1]] : (m[2] ?? '').split(',').map((part) => part.trim().split(/\s+as\s+/).pop() ?? '').filter(Boolean),
      )
      const unknown = exported.filter((name) => !ENGINE_IO_KEPT.includes(name) && !ENGINE_IO_DROPPED.includes(name))
      if (unknown.length > 0) throw new Error(`websocket-only: engine.io-client now exports ${unknown.join(', ')}; say in vite.config.ts whether to keep them`)
      return source.replace(/^export \{ (\w+)(?: as (\w+))? \} from "\.\/transports\/[^"]+";$/gm, (line, name: string, alias: string | undefined) =>
        ENGINE_IO_DROPPED.includes(alias ?? name) ? `export const ${alias ?? name} = undefined;` : line,
      )
    },
  }
}

const firstLoad = firstLoadChunks()

const API_SERVER = process.env.API_PROXY_TARGET ?? 'http://localhost:8080'

export default defineConfig({
  base: '/admin/',
  resolve: {
    // 'zod' in the PWA is zod already set to jitless (src/lib/zod-setup.ts), so no chunk has to
    // wait for the setting before it builds schemas.
    alias: [zodAlias],
  },
  plugins: [
    contractNames(),
    websocketOnly(),
    react(),
    tailwindcss(),
    prerenderLogin(),
    earlyCallsScript(),
    firstLoad.plugin,
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      // main.tsx registers the worker itself (src/app/sw-register.ts), and offers "Reload to update"
      // with workbox-window once a new version waits.
      injectRegister: false,
      registerType: 'prompt',
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,png,svg,webmanifest}'],
        rollupFormat: 'iife',
      },
      manifest: {
        name: 'Back Office',
        short_name: 'Back Office',
        description: 'Administration of the wallet and game platform: leads, content, links, brands and staff.',
        start_url: '/admin/',
        scope: '/admin/',
        id: '/admin/',
        display: 'standalone',
        background_color: '#f8fafc',
        theme_color: '#3730a3',
        icons: [
          { src: 'icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: 'icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: 'icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
        // The installed app's jump list: the screens staff open most.
        shortcuts: [
          { name: 'Leads', url: '/admin/users', icons: [{ src: 'icon-192.png', sizes: '192x192', type: 'image/png' }] },
          { name: 'Games', url: '/admin/cms', icons: [{ src: 'icon-192.png', sizes: '192x192', type: 'image/png' }] },
          { name: 'Messaging', url: '/admin/notificationlist', icons: [{ src: 'icon-192.png', sizes: '192x192', type: 'image/png' }] },
        ],
      },
    }),
    precompress(),
  ],
  build: {
    target: 'es2022',
    // Budgets are watched by the bench; a warning here would only be noise.
    chunkSizeWarningLimit: 600,
    // Every browser the app is for follows <link rel="modulepreload"> itself; where one did not,
    // a lazy chunk's imports would load after it rather than beside it, nothing worse.
    modulePreload: { polyfill: false },
    rolldownOptions: { output: { codeSplitting: { groups: firstLoad.groups } } },
  },
  server: {
    proxy: {
      '/api': API_SERVER,
      '/uploads': API_SERVER,
      '/socket.io': { target: API_SERVER, ws: true },
    },
  },
})
