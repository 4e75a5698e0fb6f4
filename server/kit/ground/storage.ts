/**
 * Where checked uploads and their thumbnails are kept: a folder on the local disk (the default,
 * DATA_DIR/uploads) or a bucket of an S3-compatible object store (S3_ENDPOINT, S3_BUCKET, ...),
 * which several instances share (docs/decisions/007-object-storage.md).
 *
 * Everything before a file is stored stays local: a multipart file is streamed to DATA_DIR/tmp,
 * its content checked and its thumbnail made there (server/kit/ground/uploads.ts), and only then handed
 * to the storage under a name the server chose. Names are flat (no folders): the storage refuses
 * anything else, so a value from the database can never reach outside it.
 *
 * Each deployment keeps its uploads under its STORAGE_PREFIX (a folder inside DATA_DIR/uploads, a
 * key prefix inside the bucket; empty by default), and lists (for the sweep) only there: the sweep
 * removes every server-made name its database does not hold, so two deployments sharing a bucket
 * or a folder without prefixes would delete each other's files. Rows hold the bare name, and
 * /uploads/<name> stays the address, so the prefix is the storage's own business. A name not
 * found under the prefix is looked up (read, stat, remove) where it was stored before a prefix was
 * set, at the top of the folder or bucket: references stored then keep working, and the sweep,
 * listing only the prefix, never takes such a file (a deployment without a prefix owns the top).
 *
 * Two deployments on one prefix (both without STORAGE_PREFIX, typically) would sweep each other's
 * files, so each marks its place: at start, a deployment with PUBLIC_URL set writes its name into
 * `<prefix>.back-office-deployment` when the marker is absent, and refuses to start when the
 * marker names another deployment. The marker's name starts with a dot: no upload has one, so no
 * sweep or listing takes it.
 */
import { createReadStream, type Stats } from 'node:fs'
import { copyFile, lstat, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Transform, type Readable } from 'node:stream'
import type * as Minio from 'minio'
import type { S3Settings } from '../../config.ts'

/** What the storage knows of a stored object. */
export interface ObjectInfo {
  name: string
  /** Bytes. */
  size: number
  /** The media type it is served with. */
  type: string
  /** When it was stored: the sweep's grace period counts from here. */
  modified: Date
}

/** Bytes `start` to `end`, both included (as in an HTTP Range header). */
export interface ByteRange {
  start: number
  end: number
}

export interface ObjectStorage {
  /** For the log: where the files are. */
  readonly description: string
  /** Moves a local file (a checked upload or its thumbnail) into the storage as `name`; the local file is gone afterwards. */
  putFile(name: string, path: string): Promise<void>
  /** The object's size, type and time, or null when there is none. */
  stat(name: string): Promise<ObjectInfo | null>
  /** The object's bytes, only `range` when given. Throws NotStored when there is no such object. */
  read(name: string, range?: ByteRange): Promise<Readable>
  /** Removes an object; false when there was none (another request or sweep took it). */
  remove(name: string): Promise<boolean>
  /** Every object, for the sweep. */
  list(): AsyncIterable<ObjectInfo>
}

/** No object of that name. */
export class NotStored extends Error {
  constructor(name: string) {
    super(`${name} is not stored`)
  }
}

/** The media type of a stored name: names are server-chosen, their extension set by the content check. */
const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  mp4: 'video/mp4',
  m4a: 'audio/mp4',
  webm: 'video/webm',
  webp: 'image/webp',
}
export const typeOfName = (name: string): string => TYPES[/\.([a-z0-9]+)$/.exec(name)?.[1] ?? ''] ?? 'application/octet-stream'

/** A flat name: no folder, no dot first (so never `..` or a hidden file). */
const FLAT_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/
function checkName(name: string): void {
  if (!FLAT_NAME.test(name) || name.length > 200) throw new Error(`not a storable name: ${JSON.stringify(name)}`)
}

const isMissing = (error: unknown): boolean => error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'NotFound' || error.code === 'NoSuchKey')

/** A valid STORAGE_PREFIX (server/config.ts): empty, or folder names each followed by '/'. */
const PREFIX = /^([A-Za-z0-9_-][A-Za-z0-9._-]*\/)*$/
function checkPrefix(prefix: string): void {
  if (!PREFIX.test(prefix)) throw new Error(`not a storage prefix: ${JSON.stringify(prefix)}`)
}

/**
 * `first(name)`, or `before(name)` (where the name was stored before the prefix was set) when the
 * first finds nothing (null, false or NotStored) and there is a prefix.
 */
function withFallback<T>(prefixed: boolean, first: () => Promise<T>, before: () => Promise<T>): Promise<T> {
  if (!prefixed) return first()
  return first().then(
    (found) => (found === null || found === false ? before() : found),
    (error: unknown) => {
      if (error instanceof NotStored) return before()
      throw error
    },
  )
}

/** A folder on the local disk: DATA_DIR/uploads/<prefix><name>. */
export function diskStorage(root: string, prefix = ''): ObjectStorage {
  checkPrefix(prefix)
  const dir = join(root, prefix)
  const info = (name: string, stats: Stats): ObjectInfo => ({ name, size: stats.size, type: typeOfName(name), modified: stats.mtime })
  const statIn = async (folder: string, name: string): Promise<ObjectInfo | null> => {
    checkName(name)
    const stats = await stat(join(folder, name)).catch((error: unknown) => {
      if (isMissing(error)) return null
      throw error
    })
    return stats?.isFile() === true ? info(name, stats) : null
  }
  const readIn = async (folder: string, name: string, range?: ByteRange): Promise<Readable> => {
    checkName(name)
    const stream = createReadStream(join(folder, name), range === undefined ? {} : { start: range.start, end: range.end })
    // Opening is asynchronous: wait for it, so a missing file is NotStored rather than a stream error.
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve())
      stream.once('error', (error) => reject(isMissing(error) ? new NotStored(name) : error))
    })
    return stream
  }
  const removeIn = async (folder: string, name: string): Promise<boolean> => {
    checkName(name)
    try {
      await rm(join(folder, name))
      return true
    } catch (error) {
      if (isMissing(error)) return false
      throw error
    }
  }
  const prefixed = prefix !== ''
  return {
    description: `the folder ${dir}`,
    async putFile(name, path) {
      checkName(name)
      await mkdir(dir, { recursive: true })
      // The staging folder is on the same disk (DATA_DIR), so this is a rename, and it keeps the
      // file's time: the sweep's grace period counts from when the upload arrived. A file from
      // another disk (the demo's generated images) is copied.
      try {
        await rename(path, join(dir, name))
      } catch (error) {
        if (!(error instanceof Error && 'code' in error && error.code === 'EXDEV')) throw error
        await copyFile(path, join(dir, name))
        await rm(path, { force: true })
      }
    },
    stat: (name) => withFallback(prefixed, () => statIn(dir, name), () => statIn(root, name)),
    read: (name, range) => withFallback(prefixed, () => readIn(dir, name, range), () => readIn(root, name, range)),
    remove: (name) => withFallback(prefixed, () => removeIn(dir, name), () => removeIn(root, name)),
    async *list() {
      let names: string[]
      try {
        names = await readdir(dir)
      } catch (error) {
        if (isMissing(error)) return
        throw error
      }
      for (const name of names) {
        // The deployment's marker and anything else no upload is named like.
        if (!FLAT_NAME.test(name)) continue
        const stats = await lstat(join(dir, name)).catch(() => null)
        // Gone since the listing, or not a plain file (a folder put there by hand): not ours.
        if (stats?.isFile() === true) yield info(name, stats)
      }
    },
  }
}

/** A bucket of an S3-compatible store, through the MinIO client: keys are <prefix><name>. */
export function s3Storage(settings: S3Settings, prefix = ''): ObjectStorage {
  checkPrefix(prefix)
  const prefixed = prefix !== ''
  // The MinIO client (and its XML and HTTP helpers, about 20 MiB of memory) loads on first use:
  // a server on the local disk never pays for it.
  let opened: Promise<Minio.Client> | undefined
  const connect = (): Promise<Minio.Client> => (opened ??= s3Client(settings))
  const bucket = settings.bucket
  const statKey = async (name: string, key: string): Promise<ObjectInfo | null> => {
    checkName(name)
    try {
      const found = await (await connect()).statObject(bucket, key)
      const type = found.metaData['content-type']
      return { name, size: found.size, type: typeof type === 'string' && type !== '' ? type : typeOfName(name), modified: found.lastModified }
    } catch (error) {
      if (isMissing(error)) return null
      throw error
    }
  }
  const readKey = async (name: string, key: string, range?: ByteRange): Promise<Readable> => {
    checkName(name)
    try {
      const client = await connect()
      if (range === undefined) return await client.getObject(bucket, key)
      const length = range.end - range.start + 1
      return atMost(await client.getPartialObject(bucket, key, range.start, length), length)
    } catch (error) {
      if (isMissing(error)) throw new NotStored(name)
      throw error
    }
  }
  const removeKey = async (name: string, key: string): Promise<boolean> => {
    // S3 answers a delete of nothing as a success: ask first, for the sweep's counts.
    if ((await statKey(name, key)) === null) return false
    await (await connect()).removeObject(bucket, key)
    return true
  }
  return {
    description: `the bucket ${bucket} at ${new URL(settings.endpoint).origin}${prefixed ? `, under ${prefix}` : ''}`,
    async putFile(name, path) {
      checkName(name)
      const { size } = await lstat(path)
      await (await connect()).putObject(bucket, prefix + name, createReadStream(path), size, { 'Content-Type': typeOfName(name) })
      await rm(path, { force: true })
    },
    stat: (name) => withFallback(prefixed, () => statKey(name, prefix + name), () => statKey(name, name)),
    read: (name, range) => withFallback(prefixed, () => readKey(name, prefix + name, range), () => readKey(name, name, range)),
    remove: (name) => withFallback(prefixed, () => removeKey(name, prefix + name), () => removeKey(name, name)),
    async *list() {
      // Only this deployment's keys: another's prefix, or (with a prefix) the top, are not ours.
      const stream = (await connect()).listObjectsV2(bucket, prefix, true)
      for await (const item of stream as AsyncIterable<Minio.BucketItem>) {
        if (item.name === undefined || !item.name.startsWith(prefix)) continue
        const name = item.name.slice(prefix.length)
        if (!FLAT_NAME.test(name)) continue
        yield { name, size: item.size, type: typeOfName(name), modified: item.lastModified ?? new Date(0) }
      }
    },
  }
}

/**
 * The configured storage. S3 is checked before the server serves: a wrong endpoint, key or bucket
 * stops the start with a message naming it, rather than failing each upload later.
 */
export async function openStorage(config: { uploadsDir: string; s3: S3Settings | null; storagePrefix?: string; deployment?: string | null }): Promise<ObjectStorage> {
  const prefix = config.storagePrefix ?? ''
  const deployment = config.deployment ?? null
  if (config.s3 === null) {
    const dir = join(config.uploadsDir, prefix)
    await mkdir(dir, { recursive: true })
    if (deployment !== null) {
      const path = join(dir, DEPLOYMENT_MARKER)
      await checkMarker(deployment, `the folder ${dir}`, path, {
        read: async () => {
          try {
            return await readFile(path, 'utf8')
          } catch (error) {
            if (isMissing(error)) return null
            throw error
          }
        },
        write: async (text) => {
          await writeFile(path, text, { flag: 'wx' }).catch((error: unknown) => {
            // Another instance of the deployment wrote it first: read back below.
            if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error
          })
        },
      })
    }
    return diskStorage(config.uploadsDir, prefix)
  }
  const storage = s3Storage(config.s3, prefix)
  const where = `S3_BUCKET ${config.s3.bucket} at S3_ENDPOINT ${new URL(config.s3.endpoint).origin}`
  let exists: boolean
  try {
    exists = await (await s3Client(config.s3)).bucketExists(config.s3.bucket)
  } catch (error) {
    throw new Error(`Object storage: cannot reach ${where}: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (!exists) throw new Error(`Object storage: ${where} does not exist; create the bucket first`)
  if (deployment !== null) {
    const client = await s3Client(config.s3)
    const bucket = config.s3.bucket
    const key = prefix + DEPLOYMENT_MARKER
    await checkMarker(deployment, `S3_BUCKET ${bucket}${prefix === '' ? '' : ` under ${prefix}`}`, `the object ${key} of ${bucket}`, {
      read: async () => {
        try {
          const chunks: Buffer[] = []
          for await (const chunk of (await client.getObject(bucket, key)) as AsyncIterable<Buffer>) chunks.push(chunk)
          return Buffer.concat(chunks).toString('utf8')
        } catch (error) {
          if (isMissing(error)) return null
          throw error
        }
      },
      write: async (text) => {
        await client.putObject(bucket, key, Buffer.from(text, 'utf8'), undefined, { 'Content-Type': 'application/json' })
      },
    })
  }
  return storage
}

/** The marker naming the deployment whose uploads a prefix holds. */
export const DEPLOYMENT_MARKER = '.back-office-deployment'

const Marker = (text: string): string | null => {
  try {
    const parsed: unknown = JSON.parse(text)
    return typeof parsed === 'object' && parsed !== null && 'deployment' in parsed && typeof parsed.deployment === 'string' ? parsed.deployment : null
  } catch {
    return null
  }
}

/**
 * Writes the marker when absent, then reads it back: a marker naming another deployment (written
 * before, or by one starting at the same moment) stops the start with what to do.
 */
async function checkMarker(deployment: string, where: string, what: string, marker: { read(): Promise<string | null>; write(text: string): Promise<void> }): Promise<void> {
  if ((await marker.read()) === null) await marker.write(`${JSON.stringify({ deployment })}\n`)
  const text = await marker.read()
  const owner = text === null ? null : Marker(text)
  if (owner === deployment) return
  throw new Error(
    `Object storage: ${where} holds the uploads of another deployment (${owner ?? 'an unreadable marker'}), and this one is ${deployment}: ` +
      `each sweeps the files its database does not name, so they would delete each other's uploads. Give each deployment its own STORAGE_PREFIX; ` +
      `if this is the same deployment under a new PUBLIC_URL, remove ${what} and start again.`,
  )
}

/**
 * The first `length` bytes of a stream, the rest read and dropped. A store that answers a range
 * with more than asked (s3rver sends the whole object for bytes=0-0) must not make the answer
 * longer than the Content-Length it promised.
 */
function atMost(source: Readable, length: number): Readable {
  let left = length
  const cut = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const part = chunk.subarray(0, Math.max(0, left))
      left -= part.length
      callback(null, part.length > 0 ? part : undefined)
    },
  })
  source.once('error', (error) => cut.destroy(error))
  return source.pipe(cut)
}

async function s3Client(settings: S3Settings): Promise<Minio.Client> {
  const { Client } = await import('minio')
  const url = new URL(settings.endpoint)
  const useSSL = url.protocol === 'https:'
  return new Client({
    endPoint: url.hostname,
    port: url.port === '' ? (useSSL ? 443 : 80) : Number(url.port),
    useSSL,
    accessKey: settings.accessKey,
    secretKey: settings.secretKey,
    region: settings.region,
    pathStyle: settings.pathStyle,
  })
}
