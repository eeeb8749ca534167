import { randomUUID } from 'node:crypto';
import type { LinterMessage, LinterMessageType, LinterMetadata, LinterOutput } from './linter-output.js';

/**
 * `validation_results` as AMO's signing API returns them: addons-linter output reshaped into the old
 * amo-validator structure (addons-server `fix_addons_linter_output`).
 */
export interface ValidationResults extends MessageCounts {
  success: boolean;
  compatibility_summary: MessageCounts;
  detected_type: DetectedType;
  ending_tier: 5;
  metadata: ValidationMetadata;
  messages: ValidationMessage[];
  message_tree: Record<string, never>;
}

export interface MessageCounts {
  errors: number;
  warnings: number;
  notices: number;
}

export type MessageType = LinterMessageType;

/** The old validator's names; the linter itself only ever reports `extension` for WebExtensions. */
export type DetectedType = 'extension' | 'theme' | 'dictionary' | 'langpack' | 'search' | 'statictheme';

export interface ValidationMessage {
  /** `[code]` for linter findings, `['validation', 'messages', id]` for messages the server adds. */
  id: string[];
  type: MessageType;
  tier: 1;
  /** uuid4 hex, no dashes. */
  uid: string;
  message: string;
  description: string | string[];
  file?: string;
  line?: number;
  column?: number;
  instancePath?: string;
  fatal?: boolean;
}

export interface ValidationMetadata extends Partial<LinterMetadata> {
  listed: boolean;
  is_webextension: true;
  /** Recognised libraries: file path → `{ path: library name }` (AMO's naming). Absent after a crash. */
  identified_files?: Record<string, { path: string }>;
  processed_by_addons_linter?: true;
}

/** A message the server adds in front of the linter's (it counts like any other). */
export interface InjectedMessage {
  type: MessageType;
  message: string;
  description?: string | string[];
  /** Becomes `id: ['validation', 'messages', id]`. */
  id?: string;
}

export interface MappingOptions {
  listed: boolean;
  injected?: InjectedMessage[];
  /** What upload parsing found in the manifest; wins over the linter's metadata type. */
  detectedType?: DetectedType;
}

export const MAX_MESSAGES = 500;
export const CRASH_MESSAGE = "Sorry, we couldn't load your WebExtension.";

// addons-linter's PACKAGE_* constants (src/const.js), not AMO's ADDON_* ones.
const LINTER_PACKAGE_TYPES: Record<number, DetectedType> = {
  1: 'extension',
  2: 'theme',
  3: 'dictionary',
  4: 'langpack',
  5: 'search',
};

const SEVERITY: Record<MessageType, number> = { error: 0, warning: 1, notice: 2 };

export function toValidationResults(output: LinterOutput, options: MappingOptions): ValidationResults {
  const messages = [...output.errors, ...output.notices, ...output.warnings].map(fromLinter);
  const results: ValidationResults = {
    ...skeleton(output.summary, messages),
    detected_type: options.detectedType ?? detectedType(output.metadata),
    metadata: {
      listed: options.listed,
      identified_files: identifiedFiles(output.metadata),
      processed_by_addons_linter: true,
      is_webextension: true,
      ...output.metadata,
    },
  };
  return finish(results, options.injected);
}

/** What a validation that crashed or timed out leaves behind (AMO's VALIDATOR_SKELETON_EXCEPTION_WEBEXT). */
export function crashResults(options: MappingOptions): ValidationResults {
  const crash: ValidationMessage = {
    id: ['validator', 'unexpected_exception'],
    type: 'error',
    tier: 1,
    uid: newUid(),
    message: CRASH_MESSAGE,
    description: [
      'Validation was unable to complete successfully due to an unexpected error.',
      'Check that the file is a valid WebExtension package and upload it again.',
    ],
    fatal: true,
  };
  const results: ValidationResults = {
    ...skeleton({ errors: 1, warnings: 0, notices: 0 }, [crash]),
    detected_type: options.detectedType ?? 'extension',
    metadata: { listed: options.listed, is_webextension: true },
  };
  return finish(results, options.injected);
}

function skeleton(counts: MessageCounts, messages: ValidationMessage[]) {
  return {
    success: counts.errors === 0,
    errors: counts.errors,
    warnings: counts.warnings,
    notices: counts.notices,
    compatibility_summary: { errors: 0, warnings: 0, notices: 0 },
    ending_tier: 5 as const,
    messages,
    message_tree: {},
  };
}

function fromLinter({ _type, code, ...rest }: LinterMessage): ValidationMessage {
  return { id: [code], type: _type, tier: 1, uid: newUid(), ...rest };
}

function fromInjected({ id = '', type, message, description = [] }: InjectedMessage): ValidationMessage {
  return { id: ['validation', 'messages', id], type, tier: 1, uid: newUid(), message, description };
}

function detectedType(metadata: LinterMetadata | null): DetectedType {
  return (metadata?.type !== undefined && LINTER_PACKAGE_TYPES[metadata.type]) || 'extension';
}

function identifiedFiles(metadata: LinterMetadata | null): Record<string, { path: string }> {
  const entries = Object.entries(metadata?.jsLibs ?? {});
  return Object.fromEntries(entries.map(([file, library]) => [file, { path: library }]));
}

function finish(results: ValidationResults, injected: InjectedMessage[] = []): ValidationResults {
  for (const message of injected) results[countKey(message.type)] += 1;
  results.success = results.errors === 0;
  results.messages = truncate([...injected.map(fromInjected), ...results.messages], results);
  return results;
}

/** Keeps the most severe messages (stable, so injected ones stay first) and says how many were dropped. */
function truncate(messages: ValidationMessage[], counts: MessageCounts): ValidationMessage[] {
  if (messages.length <= MAX_MESSAGES) return messages;
  const kept = [...messages].sort((a, b) => SEVERITY[a.type] - SEVERITY[b.type]).slice(0, MAX_MESSAGES - 1);
  const dropped = messages.length - kept.length;
  return [truncationNotice(dropped, mostSevere(counts)), ...kept];
}

function truncationNotice(dropped: number, type: MessageType): ValidationMessage {
  return {
    id: ['validation', 'messages', 'truncated'],
    type,
    tier: 1,
    uid: newUid(),
    message:
      `Validation generated too many errors/warnings so ${dropped} messages were truncated. ` +
      "After addressing the visible messages, you'll be able to see the others.",
    description: [],
  };
}

function mostSevere(counts: MessageCounts): MessageType {
  if (counts.errors > 0) return 'error';
  return counts.warnings > 0 ? 'warning' : 'notice';
}

function countKey(type: MessageType): keyof MessageCounts {
  return `${type}s`;
}

function newUid(): string {
  return randomUUID().replaceAll('-', '');
}
