import { RENDER_RETRY_SECONDS } from '../src/core/images.js';
import { createAddon } from './helpers/catalogue.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { png, pngBomb } from './helpers/images.js';

/**
 * Image uploads through the service (REST account pictures, GraphQL icons and previews): the
 * pixel limit of each purpose, and the bounded render queue (429 with `Retry-After` when full).
 */

let t: TestApp;
let owner: { id: number; token: string };

beforeAll(async () => {
  t = await startTestApp();
  const user = await t.createUser({ username: 'image-owner', session: true });
  owner = { id: user.id, token: `Bearer ${user.sessionToken}` };
  await createAddon(t.em(), { slug: 'pictured', authors: [{ id: owner.id }] });
});
afterAll(() => t.close());

const graphqlUpload = (query: string, field: string, file: Buffer) =>
  t.http
    .post('/graphql')
    .set('Authorization', owner.token)
    .set('apollo-require-preflight', 'true')
    .field('operations', JSON.stringify({ query, variables: { addon: 'pictured', [field]: null } }))
    .field('map', JSON.stringify({ 0: [`variables.${field}`] }))
    .attach('0', file, 'image.png');

const ICON = `mutation($addon: String!, $icon: Upload!) { setAddonIcon(addon: $addon, icon: $icon) { iconUrl(size: 64) } }`;
const PREVIEW = `mutation($addon: String!, $image: Upload!) { addAddonPreview(addon: $addon, image: $image) { imageSize thumbnailSize } }`;
const picture = (file: Buffer, version = 'v4') =>
  t.http
    .patch(`/api/${version}/accounts/account/${owner.id}/`)
    .set('Authorization', owner.token)
    .attach('picture_upload', file, 'me.png');

const NOT_AN_IMAGE = 'Images must be either PNG or JPG.';

describe('pixel limits', () => {
  // 20 megapixels of zeros in a few KB: over the icons' and pictures' 16, under the previews' 50.
  const large = pngBomb(5000, 4000);

  it('refuses icons and account pictures over ICON_MAX_MEGAPIXELS with the usual 400 field error', async () => {
    expect(t.app.services.config.ICON_MAX_MEGAPIXELS).toBe(16);
    for (const version of ['v3', 'v4']) {
      const res = await picture(large, version);
      expect([version, res.status, res.body]).toEqual([version, 400, { picture_upload: [NOT_AN_IMAGE] }]);
    }
    const icon = await graphqlUpload(ICON, 'icon', large);
    expect(icon.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { icon: [NOT_AN_IMAGE] },
    });
    // 16 megapixels are still an icon and a picture.
    const square = pngBomb(4000, 4000);
    expect((await graphqlUpload(ICON, 'icon', square)).body.errors).toBeUndefined();
    expect((await picture(square)).status).toBe(200);
  });

  it('takes the same image as a preview (PREVIEW_MAX_MEGAPIXELS, 50)', async () => {
    const res = await graphqlUpload(PREVIEW, 'image', large);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.addAddonPreview).toEqual({ imageSize: [2250, 1800], thumbnailSize: [600, 480] });
  });
});

describe('the render queue', () => {
  it('answers 429 with Retry-After at once when full (REST and GraphQL), and renders again once it drains', async () => {
    const { images, config } = t.app.services;
    expect(images.slots.maxWaiting).toBe(config.IMAGE_RENDER_QUEUE);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // Every render slot busy and every waiting place taken.
    const held = Array.from({ length: images.slots.size + images.slots.maxWaiting }, () =>
      images.slots.run(() => gate),
    );
    const image = await png(64, 64);
    try {
      expect(images.slots.queued).toBe(config.IMAGE_RENDER_QUEUE);
      const rest = await picture(image);
      expect(rest.status).toBe(429);
      expect(rest.headers['retry-after']).toBe(String(RENDER_RETRY_SECONDS));
      expect(rest.body).toEqual({
        detail: `Request was throttled. Expected available in ${RENDER_RETRY_SECONDS} seconds.`,
      });
      const graphql = await graphqlUpload(ICON, 'icon', image);
      expect(graphql.body.errors[0].extensions).toMatchObject({ code: 'THROTTLED', retryAfter: RENDER_RETRY_SECONDS });
      // The refused uploads did not join the queue.
      expect(images.slots.queued).toBe(config.IMAGE_RENDER_QUEUE);
    } finally {
      open();
      await Promise.all(held);
    }
    expect(images.slots.queued).toBe(0);
    const after = await picture(image);
    expect(after.status).toBe(200);
    expect(after.body.picture_type).toBe('image/png');
    expect((await graphqlUpload(ICON, 'icon', image)).body.errors).toBeUndefined();
  });
});
