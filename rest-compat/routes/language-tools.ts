import { AddonType, App } from '../../src/catalogue/catalogue.enums.js';
import { errors } from '../../src/core/errors.js';
import type { ApiVersion } from '../gates.js';
import type { RestLanguageToolsQuery } from '../generated/operations.js';
import { defineRoutes, gql, type RestRequest } from '../route.js';
import { shapeVersion, versionFields } from '../shapes/versions.js';
import { addonTypesParam, appParam, enumName, restEnums } from '../shapes/enums.js';

/** The most author names one request filters by (the original splits `author` on commas). */
const MAX_AUTHORS = 20;

/**
 * The application: the version's name for it, and in every version also the original's
 * (`firefox`): Firefox's own `extensions.getAddons.langpacks.url` asks v4 with `app=firefox`.
 */
const languageToolsApp = (value: string, version: ApiVersion) => appParam(value, version) ?? appParam(value, 'v5');

function variables(req: RestRequest) {
  const app = languageToolsApp(req.query.get('app') ?? '', req.version);
  if (app === null) throw errors.badRequest('Invalid "app" parameter.');
  const rawType = req.query.get('type');
  const types = rawType === null || rawType === '' ? null : addonTypesParam(rawType, req.version);
  if (rawType && (!types || types.length !== 1)) throw errors.badRequest('Invalid "type" parameter.');
  const appVersion = req.query.get('appversion') || null;
  const authors = (req.query.get('author') ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean)
    .slice(0, MAX_AUTHORS);
  return {
    app: enumName(App, app),
    type: types ? enumName(AddonType, types[0]!) : null,
    appVersion,
    withVersion: appVersion !== null,
    authors: authors.length ? authors : null,
  };
}

/**
 * `GET /api/<v>/addons/language-tools/?app=firefox[&type=language&appversion=128.0][&author=…]`:
 * every public language pack and dictionary, not paginated (the catalogue's language tools page,
 * and the browser's own language and dictionary settings). With `appversion`, each carries
 * `current_compatible_version` (id, files, reviewed, version), as the original sends.
 */
export const languageToolsRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/addons/language-tools/',
    versions: ['v4', 'v5'],
    cache: 'public',
    cacheTags: () => ['l:all'],
    document: gql`
      query RestLanguageTools(
        $app: Application!
        $type: AddonType
        $appVersion: String
        $withVersion: Boolean!
        $authors: [String!]
      ) {
        languageTools(app: $app, type: $type, appVersion: $appVersion, authors: $authors) {
          id
          guid
          slug
          type
          defaultLocale
          name
          targetLocale
          url
          currentVersion(app: $app, appVersion: $appVersion) @include(if: $withVersion) {
            ...RestVersionFields
          }
        }
      }
      ${versionFields}
    `,
    variables,
    shape: (data: RestLanguageToolsQuery, ctx) => ({
      results: data.languageTools.map((addon) => {
        const version = addon.currentVersion ? shapeVersion(addon.currentVersion, ctx) : null;
        return {
          id: addon.id,
          ...(ctx.request.query.get('appversion')
            ? {
                current_compatible_version: version && {
                  id: version.id,
                  ...('files' in version ? { files: version.files } : { file: version.file }),
                  reviewed: version.reviewed,
                  version: version.version,
                },
              }
            : {}),
          default_locale: addon.defaultLocale,
          guid: addon.guid,
          name: ctx.translated(addon.name, addon.defaultLocale),
          slug: addon.slug,
          target_locale: addon.targetLocale,
          type: restEnums.type(addon.type, ctx.version),
          url: addon.url,
        };
      }),
    }),
  },
]);
