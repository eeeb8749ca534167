/** The stored sizes of an add-on icon (the original's ADDON_ICON_SIZES). */
export const ICON_SIZES: readonly number[] = [32, 64, 128];

/** The largest stored icon size not over `size` (the smallest one below it), as the original chose. */
export function iconSize(size: number): number {
  return [...ICON_SIZES].reverse().find((stored) => stored <= size) ?? ICON_SIZES[0];
}

export const ICON_SIZE_DESCRIPTION =
  'Pixels, snapped to a stored size: 32, 64 or 128 (the largest not over it; 32 below that).';

/**
 * Public URLs of catalogue objects. Website pages (detail, edit, review…) live under the site's
 * base URL; media under `/user-media/` (served by the storage port, signing issue); defaults
 * under `/static/`.
 */
export const catalogueUrls = {
  addon: (base: string, slug: string) => `${base}/addon/${encodeURIComponent(slug)}/`,
  edit: (base: string, slug: string) => `${base}/developers/addon/${encodeURIComponent(slug)}/edit`,
  review: (base: string, id: number) => `${base}/reviewers/review/${id}`,
  ratings: (base: string, slug: string) => `${base}/addon/${encodeURIComponent(slug)}/reviews/`,
  versions: (base: string, slug: string) => `${base}/addon/${encodeURIComponent(slug)}/versions/`,
  version: (base: string, slug: string, version: string) =>
    `${base}/addon/${encodeURIComponent(slug)}/versions/${encodeURIComponent(version)}`,
  versionEdit: (base: string, slug: string, id: number) =>
    `${base}/developers/addon/${encodeURIComponent(slug)}/versions/${id}`,
  user: (base: string, id: number) => `${base}/user/${id}/`,
  anonymousPicture: (base: string) => `${base}/static/img/anon_user.png`,
  /** The icon URL for `requested` pixels, snapped to a stored size (`iconSize`). */
  icon(base: string, addonId: number, iconHash: string | null, iconType: string | null, requested: number) {
    const size = iconSize(requested);
    if (!iconType) return `${base}/static/img/addon-icons/default-${size}.png`;
    const ext = iconType === 'image/jpeg' ? 'jpg' : 'png';
    return `${base}/user-media/addon_icons/${Math.floor(addonId / 1000)}/${addonId}-${size}.${ext}?modified=${iconHash ?? '0'}`;
  },
  preview(base: string, id: number, kind: 'full' | 'thumbs', format: string, modified: Date) {
    const ext = kind === 'thumbs' ? 'jpg' : format;
    return `${base}/user-media/previews/${kind}/${Math.floor(id / 1000)}/${id}.${ext}?modified=${Math.floor(modified.getTime() / 1000)}`;
  },
  file: (base: string, id: number, filename: string) => `${base}/downloads/file/${id}/${encodeURIComponent(filename)}`,
};
