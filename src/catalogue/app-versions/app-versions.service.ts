import type { RequestContext } from '../../core/context.js';
import { errors } from '../../core/errors.js';
import { selectRows } from '../../db/rows.js';
import { App, CURRENT_APPS, versionInt } from '../catalogue.enums.js';

/** What registering a browser version did: the versions created, per application. */
export interface AppVersionRegistration {
  /** Whether any version was created (the original's 201; 202 when all existed). */
  created: boolean;
  /** `app:version` of each version created, in the order created. */
  versions: string[];
}

/** A version string longer than this is not a browser version (and would not fit the column). */
const MAX_VERSION_LENGTH = 32;

/**
 * The browser versions add-ons may name (the original's `AppVersion`), kept for Firefox and Firefox
 * for Android alike: the add-on manifest does not tell them apart, so both lists stay in step.
 */
export class AppVersionsService {
  /** The registered versions of an application, oldest first. */
  async list(ctx: RequestContext, app: App): Promise<string[]> {
    if (!CURRENT_APPS.includes(app)) throw errors.badRequest('Invalid application parameter');
    const rows = await selectRows<{ version: string }>(
      ctx.em,
      'select version from app_versions where application = ? order by version_int, id',
      [app],
    );
    return rows.map((r) => r.version);
  }

  /**
   * Registers a new browser version, as release automation does for each build: the version asked
   * for, its release (`<major>.<minor>`, so `42.0a1` also gives `42.0`) and its major's `<major>.*`
   * (what a compatibility range may end at), each for Firefox and for Firefox for Android; those
   * that exist are skipped. `app` must be one of the current applications (it names the request; the
   * versions are created for both).
   */
  async register(ctx: RequestContext, app: App, version: string): Promise<AppVersionRegistration> {
    if (!CURRENT_APPS.includes(app)) throw errors.badRequest('Invalid application parameter');
    const parts = parseRequested(version);
    if (!parts) throw errors.badRequest('Invalid version parameter');
    const wanted = [version];
    const release = `${parts.major}.${parts.minor}`;
    const star = `${parts.major}.*`;
    if (release !== version) wanted.push(release);
    if (star !== version) wanted.push(star);
    const created: string[] = [];
    for (const application of [App.BROWSER, App.ANDROID]) {
      for (const name of wanted) {
        const rows = await selectRows<{ id: number }>(
          ctx.em,
          `insert into app_versions (application, version, version_int) values (?, ?, ?)
           on conflict (application, version) do nothing returning id`,
          [application, name, versionInt(name)!],
        );
        if (rows.length) created.push(`${application}:${name}`);
      }
    }
    return { created: created.length > 0, versions: created };
  }
}

/**
 * A browser version as release automation names one (`128.0`, `128.0a1`, `128.0.1`, `128.0b3`):
 * what `versionInt` reads, without `*`. Its major and first minor number, or null.
 */
function parseRequested(version: string): { major: number; minor: number } | null {
  if (!version || version.length > MAX_VERSION_LENGTH || version.includes('*')) return null;
  if (versionInt(version) === null) return null;
  const [, major, minor] = /^(\d+)(?:\.(\d+))?/.exec(version)!;
  return { major: Number(major), minor: Number(minor ?? 0) };
}
