import { describe, expect, it } from 'vitest'
import { gradientIcon } from '../../db/png.ts'
import { sniff } from './uploads.ts'

const ftyp = (brand: string): Buffer => Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from(`ftyp${brand}`, 'latin1'), Buffer.alloc(20)])
// EBML header: magic, then (after a few header elements) the DocType string.
const ebml = (docType: string): Buffer =>
  Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84]), Buffer.from(docType, 'latin1'), Buffer.alloc(16)])

describe('sniff: the kind of a file from its first bytes', () => {
  it('recognises the kinds the contract accepts', () => {
    expect(sniff(gradientIcon(4, [0, 0, 0], [255, 255, 255]))).toBe('png')
    expect(sniff(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46]))).toBe('jpeg')
    expect(sniff(ftyp('isom'))).toBe('mp4')
    expect(sniff(ftyp('mp42'))).toBe('mp4')
    expect(sniff(ftyp('M4A '))).toBe('m4a')
    expect(sniff(ebml('webm'))).toBe('webm')
  })

  it('refuses look-alikes and everything else', () => {
    expect(sniff(Buffer.from('just text pretending to be an image'))).toBeNull()
    expect(sniff(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'))).toBeNull()
    expect(sniff(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>'))).toBeNull()
    expect(sniff(ftyp('qt  '))).toBeNull() // QuickTime .mov
    expect(sniff(ebml('matroska'))).toBeNull() // .mkv is not webm
    expect(sniff(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBeNull() // a truncated PNG signature
    expect(sniff(Buffer.alloc(0))).toBeNull()
  })
})
