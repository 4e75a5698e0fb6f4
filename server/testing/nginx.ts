/**
 * nginx in front of the cluster test's instances, running deploy/nginx/back-office.conf itself.
 *
 * The file goes in as it is but for the values its header tells an operator to edit, each of
 * which must be found exactly as written there (`SITE_VALUES`): the two instances' addresses
 * become the test's, the listen ports free ports on 127.0.0.1, the certificate folder one holding
 * a self-signed certificate made here. Around it goes a main configuration of the test's own,
 * standing in for Debian's /etc/nginx/nginx.conf: pid, logs and temporary files in a temporary
 * folder, and an access log that names the instance of each request. Debian's nginx then runs on
 * those ports in the foreground, as a child of the test.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import https from 'node:https'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)))
export const DEPLOY_NGINX = join(root, 'deploy', 'nginx', 'back-office.conf')

/** The values of deploy/nginx/back-office.conf an operator edits, and how often each is written there. */
export const SITE_VALUES = {
  instanceA: { text: 'server 127.0.0.1:8081 ', count: 1 },
  instanceB: { text: 'server 127.0.0.1:8082 ', count: 1 },
  httpPort: { text: 'listen 80;', count: 1 },
  httpsPort: { text: 'listen 443 ssl http2;', count: 1 },
  certificates: { text: '/etc/letsencrypt/live/back-office.example.com/', count: 2 },
} as const

export interface SiteSettings {
  instances: readonly [number, number]
  httpPort: number
  httpsPort: number
  /** A folder holding fullchain.pem and privkey.pem, ending with '/'. */
  certificates: string
}

/** deploy/nginx/back-office.conf with the test's values; throws naming a value that is not written as expected. */
export function siteForTest(site: string, settings: SiteSettings): string {
  const [a, b] = settings.instances
  const replacements: Record<keyof typeof SITE_VALUES, string> = {
    instanceA: `server 127.0.0.1:${a} `,
    instanceB: `server 127.0.0.1:${b} `,
    httpPort: `listen 127.0.0.1:${settings.httpPort};`,
    httpsPort: `listen 127.0.0.1:${settings.httpsPort} ssl http2;`,
    certificates: settings.certificates,
  }
  // Directives only: the header's comments name the same values.
  const lines = site.split('\n')
  const directive = (line: string) => !line.trimStart().startsWith('#')
  for (const [key, { text, count }] of Object.entries(SITE_VALUES)) {
    const found = lines.filter(directive).reduce((n, line) => n + line.split(text).length - 1, 0)
    if (found !== count) throw new Error(`${DEPLOY_NGINX}: expected "${text}" ${count} time(s), found it ${found}; update SITE_VALUES in server/testing/nginx.ts with the file's header`)
    for (const [i, line] of lines.entries()) if (directive(line)) lines[i] = line.split(text).join(replacements[key as keyof typeof SITE_VALUES])
  }
  return lines.join('\n')
}

/** Debian's nginx: on the PATH, else where the package puts it (/usr/sbin is not on every user's PATH). */
export function findNginx(path = process.env['PATH'] ?? '', debian = '/usr/sbin/nginx'): string {
  const candidates = [...path.split(delimiter).filter((d) => d !== '').map((d) => join(d, 'nginx')), debian]
  const found = candidates.find((candidate) => existsSync(candidate))
  if (found === undefined) {
    throw new Error(`nginx is not installed (not on the PATH, not ${debian}): the cluster test runs behind it. Install the Debian package nginx (sudo apt-get install nginx); .ci/run installs it when missing`)
  }
  return found
}

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer()
    s.once('error', fail)
    s.listen(0, '127.0.0.1', () => {
      const address = s.address()
      s.close(() => done(typeof address === 'object' && address !== null ? address.port : 0))
    })
  })
}

/** One finished request of the access log (a WebSocket's once it closes). */
export interface LoggedRequest {
  method: string
  uri: string
  status: number
  /** The instance ports tried, in order (more than one when nginx went on to the next). */
  instances: number[]
  /** The address nginx saw the client at. */
  client: string
}

export interface NginxRequest {
  method?: string
  headers?: Record<string, string>
  body?: string | FormData
  /** The client's own address (127.0.0.2 and the like: every 127.x address is this machine). */
  localAddress?: string
}

export interface Nginx {
  /** https://127.0.0.1:<port> */
  base: string
  /** The certificate nginx presents, for a client's `ca`. */
  ca: string
  /** A request over TLS to nginx, answered as fetch would (bodies as sent: a gzip body stays compressed). */
  request: (path: string, init?: NginxRequest) => Promise<Response>
  /** The access log so far. */
  logged: () => Promise<LoggedRequest[]>
  close: () => Promise<void>
}

const LOG_FORMAT = '$request_method|$uri|$status|$upstream_addr|$remote_addr'

/** Debian's /etc/nginx/nginx.conf, as far as a site sees it, with every path in `dir`. */
function mainConfig(dir: string): string {
  return `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events {
    worker_connections 256;
}
http {
    # What Debian's nginx.conf sets around the sites it includes.
    sendfile on;
    tcp_nopush on;
    types_hash_max_size 2048;
    default_type application/octet-stream;
    ssl_protocols TLSv1 TLSv1.1 TLSv1.2 TLSv1.3;
    ssl_prefer_server_ciphers on;
    gzip on;

    log_format instances '${LOG_FORMAT}';
    access_log ${dir}/access.log instances;
    client_body_temp_path ${dir}/body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    include ${dir}/back-office.conf;
}
`
}

function makeCertificate(dir: string): void {
  const made = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', join(dir, 'privkey.pem'), '-out', join(dir, 'fullchain.pem')],
    { encoding: 'utf8' },
  )
  if (made.error !== undefined) throw new Error(`openssl could not run (${made.error.message}): install the Debian package openssl`)
  if (made.status !== 0) throw new Error(`openssl could not make a certificate:\n${made.stderr}`)
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((done) => child.once('exit', () => done()))

const portAnswers = (port: number): Promise<boolean> =>
  new Promise((done) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end()
      done(true)
    })
    socket.once('error', () => done(false))
  })

/** Starts nginx with deploy/nginx/back-office.conf in front of the instances on these ports. */
export async function startNginx(instances: readonly [number, number]): Promise<Nginx> {
  const nginx = findNginx()
  const dir = await mkdtemp(join(tmpdir(), 'bo-nginx-'))
  // Run as root, nginx's workers run as nobody and must reach their temporary folders in here.
  await chmod(dir, 0o755)
  const tls = join(dir, 'tls')
  await mkdir(tls)
  makeCertificate(tls)
  const [httpPort, httpsPort] = [await freePort(), await freePort()]
  await writeFile(join(dir, 'back-office.conf'), siteForTest(await readFile(DEPLOY_NGINX, 'utf8'), { instances, httpPort, httpsPort, certificates: `${tls}/` }))
  await writeFile(join(dir, 'nginx.conf'), mainConfig(dir))

  const child = spawn(nginx, ['-p', `${dir}/`, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log'), '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] })
  let printed = ''
  child.stdout?.on('data', (chunk: Buffer) => (printed += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()))
  const errors = async () => `${printed}${await readFile(join(dir, 'error.log'), 'utf8').catch(() => '')}`
  const deadline = Date.now() + 10_000
  while (!(await portAnswers(httpsPort))) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}:\n${await errors()}`)
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`nginx did not listen on ${httpsPort} within 10 s:\n${await errors()}`)
    }
    await new Promise((r) => setTimeout(r, 50))
  }

  const ca = await readFile(join(tls, 'fullchain.pem'), 'utf8')
  const base = `https://127.0.0.1:${httpsPort}`
  return {
    base,
    ca,
    request: (path, init = {}) => send(new URL(path, base), ca, init),
    logged: async () =>
      (await readFile(join(dir, 'access.log'), 'utf8').catch(() => ''))
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => {
          const [method = '', uri = '', status = '', upstream = '', client = ''] = line.split('|')
          const instances = upstream === '-' ? [] : upstream.split(', ').map((address) => Number(address.slice(address.lastIndexOf(':') + 1)))
          return { method, uri, status: Number(status), instances, client }
        }),
    close: async () => {
      // Fast shutdown: open WebSockets would hold a graceful one.
      child.kill('SIGTERM')
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exited(child)
      clearTimeout(killer)
      await rm(dir, { recursive: true, force: true })
    },
  }
}

async function send(url: URL, ca: string, init: NginxRequest): Promise<Response> {
  let body: Buffer | undefined
  const headers: Record<string, string> = { ...init.headers }
  if (typeof init.body === 'string') body = Buffer.from(init.body)
  else if (init.body !== undefined) {
    // The multipart encoding fetch would send, boundary and all.
    const encoded = new Request('http://form.invalid/', { method: 'POST', body: init.body })
    body = Buffer.from(await encoded.arrayBuffer())
    headers['content-type'] = encoded.headers.get('content-type') ?? ''
  }
  if (body !== undefined) headers['content-length'] = String(body.length)
  return new Promise((done, fail) => {
    const request = https.request(url, { method: init.method ?? 'GET', headers, ca, ...(init.localAddress === undefined ? {} : { localAddress: init.localAddress }) }, (answer) => {
      const chunks: Buffer[] = []
      answer.on('data', (chunk: Buffer) => chunks.push(chunk))
      answer.once('error', fail)
      answer.once('end', () => {
        const answered = new Headers()
        for (const [name, value] of Object.entries(answer.headers)) {
          for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) answered.append(name, one)
        }
        const status = answer.statusCode ?? 0
        done(new Response(status === 204 || status === 304 ? null : Buffer.concat(chunks), { status, headers: answered }))
      })
    })
    request.once('error', fail)
    request.end(body)
  })
}
