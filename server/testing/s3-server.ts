/**
 * A local S3-compatible server for tests: s3rver (an npm dev dependency, pure Node, so it is
 * there wherever `npm ci` ran; docs/decisions/007-object-storage.md says why this one), on a free
 * port of 127.0.0.1 with its objects in a temporary folder, and the bucket made at start.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from 's3rver'

export interface TestS3 {
  /** S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY, S3_SECRET_KEY for loadConfig or a child's environment. */
  env: Record<string, string>
  close(): Promise<void>
}

export async function startS3(bucket = 'uploads'): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), 'bo-s3-'))
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] })
  const { port } = await server.run()
  return {
    // s3rver's own fixed key pair.
    env: { S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_BUCKET: bucket, S3_ACCESS_KEY: 'S3RVER', S3_SECRET_KEY: 'S3RVER' },
    async close() {
      await server.close()
      await rm(directory, { recursive: true, force: true })
    },
  }
}
