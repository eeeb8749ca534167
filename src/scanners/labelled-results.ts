import { inBlockRange } from '../blocklist/blocklist.service.js';
import type { RequestContext } from '../core/context.js';
import { errors } from '../core/errors.js';
import { pageRequest, toPage, type Page } from '../core/pagination.js';
import { selectRows, toDate, type DbTimestamp } from '../db/rows.js';
import { ReviewAction } from '../reviews/review.enums.js';
import { Scanner, type ScannerAction, type ScannerMatch } from './scanner.entity.js';

/** How a human judged a result's version: `bad` (blocked), `good` (approved by a reviewer). */
export const ScannerLabel = { GOOD: 'good', BAD: 'bad' } as const;
export type ScannerLabel = (typeof ScannerLabel)[keyof typeof ScannerLabel];

const LABELS: readonly string[] = Object.values(ScannerLabel);
const SCANNERS: readonly string[] = Object.values(Scanner);

export interface LabelledResultsFilter {
  label?: string | null;
  scanner?: string | null;
  page?: number | null;
  pageSize?: number | null;
}

export interface LabelledResult {
  id: number;
  scanner: Scanner;
  label: ScannerLabel;
  matches: ScannerMatch[];
  action: ScannerAction;
  created: Date;
}

interface CandidateRow {
  id: number;
  scanner: Scanner;
  matches: ScannerMatch[] | string;
  action: ScannerAction;
  created: DbTimestamp;
  version: string;
  min_version: string | null;
  max_version: string | null;
  approved: boolean;
}

/**
 * The scanners' results labelled by what humans later decided about their versions (the original's
 * scanner results export, a training set for the scanners): `bad` when a block covers the version,
 * `good` when a reviewer (a person, not the service's automatic approval) approved it and no block
 * covers it; results of versions nobody judged are not listed. Newest first.
 */
export class LabelledScannerResults {
  async list(ctx: RequestContext, filter: LabelledResultsFilter): Promise<Page<LabelledResult>> {
    const { label, scanner } = filter;
    if (label != null && !LABELS.includes(label)) throw errors.badRequest('invalid value for label');
    if (scanner != null && !SCANNERS.includes(scanner)) throw errors.badRequest('invalid value for scanner');
    const request = pageRequest(filter.page, filter.pageSize);
    // Candidates: results whose add-on's id has a block, or whose version a person approved. Block
    // ranges are in the browser's version order, compared here (not in SQL).
    const rows = await selectRows<CandidateRow>(
      ctx.em,
      `select r.id, r.scanner, r.matches, r.action, r.created, v.version,
              b.min_version, b.max_version,
              exists (select 1 from review_notes n
                       where n.version_id = v.id and n.action = ? and n.user_id is not null) as approved
         from scanners_results r
         join versions v on v.id = r.version_id
         join addons a on a.id = v.addon_id
         left join blocks b on a.guid is not null and lower(b.guid) = lower(a.guid)
        where (b.id is not null or exists (select 1 from review_notes n
                where n.version_id = v.id and n.action = ? and n.user_id is not null))
          and (?::text is null or r.scanner = ?)
        order by r.id desc`,
      [ReviewAction.APPROVED, ReviewAction.APPROVED, scanner ?? null, scanner ?? null],
    );
    const platform = ctx.em.getPlatform();
    const labelled: LabelledResult[] = [];
    for (const row of rows) {
      const blocked =
        row.min_version !== null &&
        inBlockRange({ minVersion: row.min_version, maxVersion: row.max_version ?? '*' }, row.version);
      const judged: ScannerLabel | null = blocked ? ScannerLabel.BAD : row.approved ? ScannerLabel.GOOD : null;
      if (judged === null || (label != null && judged !== label)) continue;
      labelled.push({
        id: row.id,
        scanner: row.scanner,
        label: judged,
        matches: typeof row.matches === 'string' ? (JSON.parse(row.matches) as ScannerMatch[]) : row.matches,
        action: row.action,
        created: toDate(platform, row.created),
      });
    }
    return toPage(request, labelled.length, labelled.slice(request.offset, request.offset + request.limit));
  }
}
