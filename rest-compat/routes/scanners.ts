import type { ScannerAction } from '../../src/scanners/scanner.entity.js';
import { SINCE_V4 } from '../gates.js';
import type { RestScannerResultsQuery } from '../generated/operations.js';
import { paginated, pageVariables } from '../pagination.js';
import { defineRoutes, gql } from '../route.js';

type Result = RestScannerResultsQuery['labelledScannerResults']['items'][number];

const actionName = (name: keyof typeof ScannerAction) => name.toLowerCase();

/** `results`: the scanner's output as stored (its matches and the action they led to). */
const shapeResult = (result: Result) => ({
  id: result.id,
  scanner: result.scanner,
  label: result.label,
  results: {
    matches: result.matches.map((m) => ({
      rule: m.rule,
      file: m.file ?? null,
      line: m.line ?? null,
      addon_id: m.addonId ?? null,
      name: m.name ?? null,
      action: actionName(m.action),
    })),
    action: actionName(result.action),
  },
  created: result.created,
  // The original's machine-learning scanners record a model version; none of these has one.
  model_version: null,
});

export const scannerRoutes = defineRoutes([
  {
    method: 'GET',
    path: '/scanner/results/',
    versions: SINCE_V4,
    document: gql`
      query RestScannerResults($label: String, $scanner: String, $page: Int, $pageSize: Int) {
        labelledScannerResults(label: $label, scanner: $scanner, page: $page, pageSize: $pageSize) {
          count
          page
          pageSize
          pageCount
          items {
            id
            scanner
            label
            matches {
              rule
              file
              line
              addonId
              name
              action
            }
            action
            created
          }
        }
      }
    `,
    variables: (req) => ({
      label: req.query.get('label'),
      scanner: req.query.get('scanner'),
      ...pageVariables(req),
    }),
    shape: (data: RestScannerResultsQuery, ctx) =>
      paginated(data.labelledScannerResults, ctx, (result) => ({
        ...shapeResult(result),
        created: ctx.timestamp(result.created),
      })),
  },
]);
