import { AddonStatus } from '../catalogue/catalogue.enums.js';
import type { AddonRecord } from '../catalogue/catalogue.records.js';
import { isDisabledAddon, isPublicAddon } from '../catalogue/public.js';
import type { Translations } from '../core/i18n/translations.js';
import { hasText } from '../curation/curation.rules.js';
import type { PrimaryShelf, SecondaryShelf } from './shelf.entity.js';
import { SHELF_GRADIENT_START } from './shelves.rules.js';

export interface Gradient {
  start: string;
  end: string | null;
}

/** A primary shelf as shown: its add-on is loaded (and shown only when the rules allow). */
export interface PrimaryShelfView {
  id: number;
  position: number;
  enabled: boolean;
  isExternal: boolean;
  gradient: Gradient;
  featuredImage: string | null;
  /** The shelf's own description. */
  ownDescription: Translations | null;
  /** The shelf's description, else the add-on's summary. */
  description: Translations | null;
  addon: AddonRecord;
}

export interface CtaView {
  url: string;
  text: Translations | null;
}

export interface ModuleView {
  icon: string;
  description: Translations;
  cta: CtaView | null;
}

export interface SecondaryShelfView {
  id: number;
  position: number;
  enabled: boolean;
  headline: Translations;
  description: Translations;
  cta: CtaView | null;
  modules: ModuleView[];
}

/** Non-external shelves need a public add-on; external ones one neither deleted nor disabled. */
export function shownAddon(external: boolean, addon: AddonRecord): boolean {
  if (!external) return isPublicAddon(addon);
  return addon.status !== AddonStatus.DELETED && !isDisabledAddon(addon);
}

export function pickOne<T>(items: T[]): T | null {
  return items.length ? items[Math.floor(Math.random() * items.length)] : null;
}

export function primaryView(shelf: PrimaryShelf, addon: AddonRecord): PrimaryShelfView {
  return {
    id: shelf.id,
    position: shelf.position,
    enabled: shelf.enabled,
    isExternal: shelf.isExternal,
    gradient: { start: SHELF_GRADIENT_START, end: shelf.gradientColor },
    featuredImage: shelf.featuredImage,
    ownDescription: shelf.description,
    description: hasText(shelf.description) ? shelf.description : addon.summary,
    addon,
  };
}

export function secondaryView(shelf: SecondaryShelf): SecondaryShelfView {
  return {
    id: shelf.id,
    position: shelf.position,
    enabled: shelf.enabled,
    headline: shelf.headline,
    description: shelf.description,
    cta: ctaView(shelf.ctaUrl, shelf.ctaText),
    modules: [...shelf.modules.getItems()]
      .sort((a, b) => a.position - b.position)
      .map((m) => ({ icon: m.icon, description: m.description, cta: ctaView(m.ctaUrl, m.ctaText) })),
  };
}

/** A call to action needs both its URL and its text (the original shows null otherwise). */
function ctaView(url: string | null, text: Translations | null): CtaView | null {
  return url && hasText(text) ? { url, text } : null;
}
