/** The report addons-linter 10.13 returns (and prints with `--output json`), as the worker passes it on. */
export interface LinterOutput {
  count: number;
  summary: LinterSummary;
  /** `null` when the package could not be opened at all (BAD_ZIPFILE). */
  metadata: LinterMetadata | null;
  errors: LinterMessage[];
  notices: LinterMessage[];
  warnings: LinterMessage[];
}

export interface LinterSummary {
  errors: number;
  notices: number;
  warnings: number;
}

export type LinterMessageType = 'error' | 'warning' | 'notice';

/** The linter's `Message` props: `_type` plus `code, message, description, column, file, line, instancePath`. */
export interface LinterMessage {
  _type: LinterMessageType;
  code: string;
  message: string;
  description: string | string[];
  file?: string;
  line?: number;
  column?: number;
  instancePath?: string;
}

/** Only the last four keys are present when there is no manifest.json. */
export interface LinterMetadata {
  id?: string | null;
  manifestVersion?: number | null;
  name?: string | null;
  /** The linter's package constant; it reports 1 (extension) for every WebExtension, themes included. */
  type?: number;
  version?: string | null;
  firefoxMinVersion?: string;
  firefoxStrictMinVersion?: number | null;
  experimentApiPaths?: Record<string, unknown>;
  totalScannedFileSize: number;
  emptyFiles: string[];
  /** File path in the package → name of the recognised library. */
  jsLibs: Record<string, string>;
  unknownMinifiedFiles: string[];
}
