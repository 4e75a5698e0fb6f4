/**
 * The PWA build: base /admin/ (spec section 9), React, Tailwind, and the service worker from
 * sw/sw.ts (vite-plugin-pwa, injectManifest: our own worker, with the precache list injected).
 * `npm run dev` proxies the API, uploads and socket.io to the server on :8080.
 */
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { defineConfig, type Plugin } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { VitePWA } from 'vite-plugin-pwa'

/**
 * Writes .br and .gz beside every text asset, at the highest levels, once per build: the server
 * sends them to browsers that accept them (@fastify/static `preCompressed`) without compressing
 * on each request. Most of the login page's cost on a slow connection is these bytes.
 */
function precompress(): Plugin {
  const TEXT = /\.(js|css|html|svg|webmanifest)$/
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
    writeBundle() {
      for (const file of walk(outDir)) {
        if (!TEXT.test(file)) continue
        const body = readFileSync(file)
        if (body.length < 1024) continue
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }))
        writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
      }
    },
  }
}

const API_SERVER = process.env.API_PROXY_TARGET ?? 'http://localhost:8080'

export default defineConfig({
  base: '/admin/',
  resolve: {
    // 'zod' in the PWA is zod already set to jitless (src/lib/zod-setup.ts), so no chunk has to
    // wait for the setting before it builds schemas.
    alias: [{ find: /^zod$/, replacement: fileURLToPath(new URL('./src/lib/zod-setup.ts', import.meta.url)) }],
  },
  plugins: [
    react(),
    tailwindcss(),
    precompress(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      // main.tsx registers the worker itself (workbox-window) to offer "Reload to update".
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
        // The installed app's jump list (issue 13): the screens staff open most.
        shortcuts: [
          { name: 'Leads', url: '/admin/users', icons: [{ src: 'icon-192.png', sizes: '192x192', type: 'image/png' }] },
          { name: 'Games', url: '/admin/cms', icons: [{ src: 'icon-192.png', sizes: '192x192', type: 'image/png' }] },
          { name: 'Messaging', url: '/admin/notificationlist', icons: [{ src: 'icon-192.png', sizes: '192x192', type: 'image/png' }] },
        ],
      },
    }),
  ],
  build: {
    target: 'es2022',
    // Budgets are watched by the bench; a warning here would only be noise.
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: {
      '/api': API_SERVER,
      '/uploads': API_SERVER,
      '/socket.io': { target: API_SERVER, ws: true },
    },
  },
})
