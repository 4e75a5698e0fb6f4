/**
 * The PWA build: base /admin/ (spec section 9), React, Tailwind, and the service worker from
 * sw/sw.ts (vite-plugin-pwa, injectManifest: our own worker, with the precache list injected).
 * `npm run dev` proxies the API, uploads and socket.io to the server on :8080.
 */
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { VitePWA } from 'vite-plugin-pwa'

const API_SERVER = process.env.API_PROXY_TARGET ?? 'http://localhost:8080'

export default defineConfig({
  base: '/admin/',
  plugins: [
    react(),
    tailwindcss(),
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
