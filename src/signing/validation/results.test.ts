import type { LinterMessage, LinterMetadata, LinterOutput } from './linter-output.js';
import { CRASH_MESSAGE, MAX_MESSAGES, crashResults, toValidationResults } from './results.js';

const UID = /^[0-9a-f]{32}$/;

const METADATA: LinterMetadata = {
  id: 'addon@example.com',
  manifestVersion: 2,
  name: 'Addon',
  type: 1,
  version: '1.0',
  firefoxStrictMinVersion: null,
  experimentApiPaths: {},
  totalScannedFileSize: 100,
  emptyFiles: [],
  jsLibs: { 'lib/jquery.js': 'jquery.3.7.1.jquery.min.js' },
  unknownMinifiedFiles: [],
};

function linterMessage(type: LinterMessage['_type'], code: string, extra: Partial<LinterMessage> = {}): LinterMessage {
  return { _type: type, code, message: `${code} message`, description: `${code} description`, ...extra };
}

function linterOutput(parts: Partial<LinterOutput> = {}): LinterOutput {
  const errors = parts.errors ?? [];
  const notices = parts.notices ?? [];
  const warnings = parts.warnings ?? [];
  return {
    count: errors.length + notices.length + warnings.length,
    summary: { errors: errors.length, notices: notices.length, warnings: warnings.length },
    metadata: METADATA,
    ...parts,
    errors,
    notices,
    warnings,
  };
}

describe('toValidationResults', () => {
  it("reshapes the linter's report like AMO's fix_addons_linter_output", () => {
    const output = linterOutput({
      errors: [linterMessage('error', 'VERSION_FORMAT_INVALID', { file: 'manifest.json' })],
      notices: [linterMessage('notice', 'SOME_NOTICE')],
      warnings: [
        linterMessage('warning', 'DANGEROUS_EVAL', { file: 'bg.js', line: 3, column: 10 }),
        linterMessage('warning', 'MANIFEST_PERMISSIONS', { file: 'manifest.json', instancePath: '/permissions/1' }),
      ],
    });

    const results = toValidationResults(output, { listed: true });

    expect(results).toEqual({
      success: false,
      errors: 1,
      warnings: 2,
      notices: 1,
      compatibility_summary: { errors: 0, warnings: 0, notices: 0 },
      detected_type: 'extension',
      ending_tier: 5,
      message_tree: {},
      metadata: {
        ...METADATA,
        listed: true,
        identified_files: { 'lib/jquery.js': { path: 'jquery.3.7.1.jquery.min.js' } },
        processed_by_addons_linter: true,
        is_webextension: true,
      },
      messages: [
        {
          id: ['VERSION_FORMAT_INVALID'],
          type: 'error',
          tier: 1,
          uid: expect.stringMatching(UID),
          message: 'VERSION_FORMAT_INVALID message',
          description: 'VERSION_FORMAT_INVALID description',
          file: 'manifest.json',
        },
        expect.objectContaining({ id: ['SOME_NOTICE'], type: 'notice' }),
        expect.objectContaining({ id: ['DANGEROUS_EVAL'], type: 'warning', file: 'bg.js', line: 3, column: 10 }),
        expect.objectContaining({ id: ['MANIFEST_PERMISSIONS'], instancePath: '/permissions/1' }),
      ],
    });
    expect(results.messages[0]).not.toHaveProperty('_type');
    expect(results.messages[0]).not.toHaveProperty('code');
    expect(new Set(results.messages.map((m) => m.uid)).size).toBe(4);
  });

  it('succeeds without errors, whatever the warnings', () => {
    const results = toValidationResults(linterOutput({ warnings: [linterMessage('warning', 'W')] }), { listed: false });
    expect(results).toMatchObject({ success: true, errors: 0, warnings: 1, metadata: { listed: false } });
  });

  it('copes with a package that could not be opened (no metadata)', () => {
    const output = linterOutput({ metadata: null, errors: [linterMessage('error', 'BAD_ZIPFILE')] });
    expect(toValidationResults(output, { listed: true })).toMatchObject({
      success: false,
      detected_type: 'extension',
      metadata: { listed: true, identified_files: {}, processed_by_addons_linter: true, is_webextension: true },
      messages: [{ id: ['BAD_ZIPFILE'] }],
    });
  });

  it("maps the linter's package type, and lets the caller's detected type win", () => {
    const dictionary = linterOutput({ metadata: { ...METADATA, type: 3 } });
    expect(toValidationResults(dictionary, { listed: true }).detected_type).toBe('dictionary');
    expect(toValidationResults(linterOutput(), { listed: true, detectedType: 'statictheme' }).detected_type).toBe(
      'statictheme',
    );
  });

  it('puts injected messages first and counts them', () => {
    const output = linterOutput({ warnings: [linterMessage('warning', 'W')] });
    const results = toValidationResults(output, {
      listed: true,
      injected: [{ type: 'error', id: 'duplicate_guid', message: 'Duplicate add-on ID found.' }],
    });
    expect(results).toMatchObject({ success: false, errors: 1, warnings: 1 });
    expect(results.messages[0]).toEqual({
      id: ['validation', 'messages', 'duplicate_guid'],
      type: 'error',
      tier: 1,
      uid: expect.stringMatching(UID),
      message: 'Duplicate add-on ID found.',
      description: [],
    });
    expect(results.messages[1].id).toEqual(['W']);
  });

  it(`keeps at most ${MAX_MESSAGES} messages, the most severe, and true counts`, () => {
    const warnings = Array.from({ length: 600 }, (_, i) => linterMessage('warning', `W${i}`));
    const errors = [linterMessage('error', 'E1'), linterMessage('error', 'E2')];
    const notices = [linterMessage('notice', 'N1')];
    const results = toValidationResults(linterOutput({ errors, notices, warnings }), { listed: true });

    expect(results).toMatchObject({ errors: 2, warnings: 600, notices: 1 });
    expect(results.messages).toHaveLength(MAX_MESSAGES);
    expect(results.messages[0]).toMatchObject({
      id: ['validation', 'messages', 'truncated'],
      type: 'error',
      message: expect.stringContaining('so 104 messages were truncated'),
    });
    expect(results.messages.slice(1, 4).map((m) => m.id[0])).toEqual(['E1', 'E2', 'W0']);
    expect(results.messages.some((m) => m.type === 'notice')).toBe(false);
  });
});

describe('crashResults', () => {
  it("is AMO's exception skeleton: one fatal error", () => {
    expect(crashResults({ listed: false })).toEqual({
      success: false,
      errors: 1,
      warnings: 0,
      notices: 0,
      compatibility_summary: { errors: 0, warnings: 0, notices: 0 },
      detected_type: 'extension',
      ending_tier: 5,
      message_tree: {},
      metadata: { listed: false, is_webextension: true },
      messages: [
        {
          id: ['validator', 'unexpected_exception'],
          type: 'error',
          tier: 1,
          uid: expect.stringMatching(UID),
          message: CRASH_MESSAGE,
          description: expect.arrayContaining([expect.stringContaining('unexpected error')]),
          fatal: true,
        },
      ],
    });
  });

  it('keeps injected messages in front', () => {
    const results = crashResults({ listed: true, injected: [{ type: 'warning', message: 'Heads up.' }] });
    expect(results).toMatchObject({ errors: 1, warnings: 1, success: false });
    expect(results.messages.map((m) => m.message)).toEqual(['Heads up.', CRASH_MESSAGE]);
  });
});
