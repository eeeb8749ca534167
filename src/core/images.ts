/** What the service needs to know about an uploaded image, read from its header bytes. */
export interface ImageInfo {
  type: 'image/png' | 'image/jpeg';
  extension: 'png' | 'jpg';
  width: number;
  height: number;
  animated: boolean;
}

/** PNG or JPEG facts, or null for anything else (or a truncated header). */
export function inspectImage(data: Buffer): ImageInfo | null {
  if (data.length >= 24 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    if (data.subarray(12, 16).toString('latin1') !== 'IHDR') return null;
    return {
      type: 'image/png',
      extension: 'png',
      width: data.readUInt32BE(16),
      height: data.readUInt32BE(20),
      animated: hasPngChunk(data, 'acTL'),
    };
  }
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8) {
    const size = jpegSize(data);
    return size ? { type: 'image/jpeg', extension: 'jpg', ...size, animated: false } : null;
  }
  return null;
}

/** An animation-control chunk before the first image data means an animated PNG. */
function hasPngChunk(data: Buffer, name: string): boolean {
  let offset = 8;
  while (offset + 8 <= data.length) {
    const length = data.readUInt32BE(offset);
    const type = data.subarray(offset + 4, offset + 8).toString('latin1');
    if (type === name) return true;
    if (type === 'IDAT' || type === 'IEND') return false;
    offset += 12 + length;
  }
  return false;
}

/** Walks JPEG segments to the first start-of-frame marker. */
function jpegSize(data: Buffer): { width: number; height: number } | null {
  let offset = 2;
  while (offset + 9 < data.length) {
    if (data[offset] !== 0xff) return null;
    const marker = data[offset + 1];
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      offset += 2;
      continue;
    }
    const length = data.readUInt16BE(offset + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { height: data.readUInt16BE(offset + 5), width: data.readUInt16BE(offset + 7) };
    offset += 2 + length;
  }
  return null;
}
