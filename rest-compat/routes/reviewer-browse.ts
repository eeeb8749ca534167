import { SINCE_V4 } from '../gates.js';
import { errors } from '../../src/core/errors.js';
import { FileReply } from '../http.js';
import { defineRoutes, gql, type RestRequest, type ShapeContext } from '../route.js';
import { restEnums } from '../shapes/enums.js';
import type {
  RestBrowseVersionQuery,
  RestCompareVersionsQuery,
  RestFileValidationQuery,
  RestPackageEntryFieldsFragment,
  RestPackageFileDownloadQuery,
  RestReviewerVersionsQuery,
  RestVersionScannerResultsQuery,
} from '../generated/operations.js';
import { addonId } from './reviewers.js';

/**
 * Reviewers browsing and comparing versions' files (v4, docs/compat-notes.md §4.5): the version list, a
 * version's tree and one file (`?file=`, `?file_only=true`), a comparison with a base version, and
 * a file's download. The rules are VersionBrowseService's; here only the original's JSON.
 */
const v4 = SINCE_V4;
const versions = '/reviewers/addon/<addon_id>/versions/';

/** A numeric path id, else the original's 404 (its URL patterns take digits only). */
function pathId(value: string): number {
  if (!/^\d{1,9}$/.test(value)) throw errors.notFound();
  return Number(value);
}

/** `?file=`: a path in the package (null: the default file). */
const fileParam = (req: RestRequest) => req.query.get('file');

const entryFields = gql`
  fragment RestPackageEntryFields on PackageEntry {
    path
    filename
    depth
    category
    mimetype
    sha256
    size
    status
  }
`;

/** The fields of a browse and of a comparison (two types with these fields in common). */
const contentsSelection = `
  addon {
    id
    slug
    name
    defaultLocale
    iconUrl(size: 64)
  }
  version {
    id
    version
    channel
    reviewed
  }
  file {
    id
  }
  entries {
    ...RestPackageEntryFields
  }
  selected {
    entry {
      ...RestPackageEntryFields
    }
    content
    exists
    usesUnknownMinifiedCode
    downloadUrl
  }
  hasBeenValidated
  validationUrl
  validationJsonUrl
`;

/** The fields a browse and a comparison share (`contentsSelection`): all a browse selects. */
type ContentsData = RestBrowseVersionQuery['browseVersion'];

/** `file_entries`: an object keyed by path, in tree order (what the original's clients read). */
function shapeEntries(entries: RestPackageEntryFieldsFragment[], compare: boolean) {
  const result: Record<string, unknown> = {};
  for (const e of entries) {
    result[e.path] = {
      depth: e.depth,
      filename: e.filename,
      path: e.path,
      mime_category: e.category,
      ...(compare ? { status: e.status ?? '' } : {}),
    };
  }
  return result;
}

/** The selected file; `content` in a browse, `diff` and `base_file` in a comparison (clients tell them apart so). */
function shapeFile<Extra extends Record<string, unknown>>(data: ContentsData, extra: Extra) {
  const { entry } = data.selected;
  return {
    id: data.file.id,
    ...extra,
    selected_file: entry.path,
    download_url: data.selected.downloadUrl,
    mimetype: entry.mimetype ?? 'application/octet-stream',
    sha256: entry.sha256,
    size: entry.size,
    filename: entry.filename,
    mime_category: entry.category,
    uses_unknown_minified_code: data.selected.usesUnknownMinifiedCode,
  };
}

/**
 * The linter's results for the version's file: the upload's JSON report
 * (`browse-validation-url-upload-report`), else the file validation route of the request's version,
 * whose `{validation}` object is what the code manager reads.
 */
function validationJsonUrl(data: ContentsData, ctx: ShapeContext): string | null {
  if (ctx.gate('browse-validation-url-upload-report') || !data.validationJsonUrl) return data.validationJsonUrl;
  return `${ctx.baseUrl}/api/${ctx.version}/reviewers/addon/${data.addon.id}/file/${data.file.id}/validation/`;
}

function shapeContents<File extends object>(data: ContentsData, ctx: ShapeContext, file: File, compare: boolean) {
  const { addon, version } = data;
  return {
    id: version.id,
    channel: restEnums.channel(version.channel),
    reviewed: ctx.timestamp(version.reviewed),
    version: version.version,
    addon: {
      id: addon.id,
      name: ctx.translated(addon.name, addon.defaultLocale),
      icon_url: addon.iconUrl,
      slug: addon.slug,
    },
    file,
    file_entries: shapeEntries(data.entries, compare),
    has_been_validated: data.hasBeenValidated,
    validation_url: data.validationUrl,
    validation_url_json: validationJsonUrl(data, ctx),
    uses_unknown_minified_code: data.selected.usesUnknownMinifiedCode,
  };
}

function shapeDiff(d: NonNullable<RestCompareVersionsQuery['compareVersions']['diff']>) {
  return {
    path: d.path,
    old_path: d.oldPath,
    size: d.size,
    lines_added: d.linesAdded,
    lines_deleted: d.linesDeleted,
    is_binary: d.isBinary,
    mode: d.mode,
    hunks: d.hunks.map((h) => ({
      header: h.header,
      old_start: h.oldStart,
      new_start: h.newStart,
      old_lines: h.oldLines,
      new_lines: h.newLines,
      changes: h.changes.map((c) => ({
        content: c.content,
        type: c.type,
        old_line_number: c.oldLineNumber,
        new_line_number: c.newLineNumber,
      })),
    })),
    parent: d.parent,
    hash: d.hash,
    old_ending_new_line: d.oldEndingNewLine,
    new_ending_new_line: d.newEndingNewLine,
  };
}

/** `?file_only=true`: only the selected file (and the version's id). */
const fileOnly = (req: RestRequest) => req.query.get('file_only')?.toLowerCase() === 'true';

export const reviewerBrowseRoutes = defineRoutes([
  {
    method: 'GET',
    path: versions,
    versions: v4,
    document: gql`
      query RestReviewerVersions($addon: String!) {
        reviewerVersions(addon: $addon) {
          id
          channel
          version
        }
      }
    `,
    variables: (req) => ({ addon: addonId(req) }),
    shape: (data: RestReviewerVersionsQuery) =>
      data.reviewerVersions.map((v) => ({ id: v.id, channel: restEnums.channel(v.channel), version: v.version })),
  },
  {
    method: 'GET',
    path: `${versions}<version_id>/`,
    versions: v4,
    document: gql`
      query RestBrowseVersion($addon: String!, $versionId: Int!, $file: String) {
        browseVersion(addon: $addon, versionId: $versionId, file: $file) {
          ${contentsSelection}
        }
      }
      ${entryFields}
    `,
    variables: (req) => ({ addon: addonId(req), versionId: pathId(req.params.version_id), file: fileParam(req) }),
    shape: ({ browseVersion: data }: RestBrowseVersionQuery, ctx) => {
      const file = shapeFile(data, { content: data.selected.content ?? '' });
      return fileOnly(ctx.request) ? { id: data.version.id, file } : shapeContents(data, ctx, file, false);
    },
  },
  {
    method: 'GET',
    path: `${versions}<base_version_id>/compare_to/<version_id>/`,
    versions: v4,
    document: gql`
      query RestCompareVersions($addon: String!, $baseVersionId: Int!, $versionId: Int!, $file: String) {
        compareVersions(addon: $addon, baseVersionId: $baseVersionId, versionId: $versionId, file: $file) {
          ${contentsSelection}
          baseFile {
            id
          }
          diff {
            path
            oldPath
            size
            linesAdded
            linesDeleted
            isBinary
            mode
            hunks {
              header
              oldStart
              newStart
              oldLines
              newLines
              changes {
                content
                type
                oldLineNumber
                newLineNumber
              }
            }
            parent
            hash
            oldEndingNewLine
            newEndingNewLine
          }
        }
      }
      ${entryFields}
    `,
    variables: (req) => ({
      addon: addonId(req),
      baseVersionId: pathId(req.params.base_version_id),
      versionId: pathId(req.params.version_id),
      file: fileParam(req),
    }),
    shape: ({ compareVersions: data }: RestCompareVersionsQuery, ctx) => {
      const baseFile = { id: data.baseFile.id };
      const file = shapeFile(data, { diff: data.diff && shapeDiff(data.diff), base_file: baseFile });
      if (fileOnly(ctx.request)) return { id: data.version.id, file };
      return { ...shapeContents(data, ctx, file, true), base_file: baseFile };
    },
  },
  {
    // A file of the package, as an attachment: never rendered by a browser on the service's origin.
    method: 'GET',
    path: `${versions}<version_id>/download/`,
    versions: v4,
    document: gql`
      query RestPackageFileDownload($addon: String!, $versionId: Int!, $file: String!) {
        packageFileDownload(addon: $addon, versionId: $versionId, file: $file) {
          fileId
          path
          filename
        }
      }
    `,
    variables: (req) => {
      const file = fileParam(req);
      if (!file) throw errors.notFound('File not found');
      return { addon: addonId(req), versionId: pathId(req.params.version_id), file };
    },
    shape: ({ packageFileDownload: f }: RestPackageFileDownloadQuery) =>
      new FileReply(
        f.fileId,
        'application/octet-stream',
        {
          'Content-Disposition': `attachment; filename*=UTF-8''${encodeURIComponent(f.filename)}`,
          'X-Content-Type-Options': 'nosniff',
          'Content-Security-Policy': "default-src 'none'; sandbox",
        },
        f.path,
      ),
  },
  {
    // The scanners' results for a version (docs/operations.md, "Scanners"): its channel's reviewers only. This
    // service's addition: the original shows them in its reviewer pages, not in its API.
    method: 'GET',
    path: `${versions}<version_id>/scanner_results/`,
    versions: v4,
    document: gql`
      query RestVersionScannerResults($addon: String!, $versionId: Int!) {
        addonVersion(addon: $addon, id: $versionId) {
          scannerResults {
            id
            scanner
            action
            created
            matches {
              rule
              file
              line
              addonId
              name
              action
            }
          }
        }
      }
    `,
    variables: (req) => ({ addon: addonId(req), versionId: pathId(req.params.version_id) }),
    shape: ({ addonVersion: { scannerResults } }: RestVersionScannerResultsQuery) => {
      if (!scannerResults) throw errors.forbidden();
      return scannerResults.map((r) => ({
        id: r.id,
        scanner: r.scanner,
        action: r.action.toLowerCase(),
        created: r.created,
        results: r.matches.map((m) => ({
          rule: m.rule,
          file: m.file,
          line: m.line,
          addon_id: m.addonId,
          name: m.name,
          action: m.action.toLowerCase(),
        })),
      }));
    },
  },
  {
    // The linter's results for a file (the original's `json_file_validation` action).
    method: 'GET',
    path: '/reviewers/addon/<addon_id>/file/<file_id>/validation/',
    versions: v4,
    document: gql`
      query RestFileValidation($addon: String!, $fileId: Int!) {
        fileValidation(addon: $addon, fileId: $fileId)
      }
    `,
    variables: (req) => ({ addon: addonId(req), fileId: pathId(req.params.file_id) }),
    shape: ({ fileValidation }: RestFileValidationQuery) => ({ validation: fileValidation }),
  },
]);
