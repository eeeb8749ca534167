import { jpeg, png } from '../../test/helpers/images.js';
import { inspectImage } from './images.js';

describe('inspectImage', () => {
  it('reads PNG and JPEG sizes and spots animated PNGs', () => {
    expect(inspectImage(png(640, 400))).toEqual({
      type: 'image/png',
      extension: 'png',
      width: 640,
      height: 400,
      animated: false,
    });
    expect(inspectImage(png(10, 10, true))?.animated).toBe(true);
    expect(inspectImage(jpeg(1280, 800))).toEqual({
      type: 'image/jpeg',
      extension: 'jpg',
      width: 1280,
      height: 800,
      animated: false,
    });
  });

  it('refuses other and truncated data', () => {
    expect(inspectImage(Buffer.from('GIF89a...'))).toBeNull();
    expect(inspectImage(png(1, 1).subarray(0, 20))).toBeNull();
    expect(inspectImage(Buffer.from([0xff, 0xd8, 0xff]))).toBeNull();
  });
});
