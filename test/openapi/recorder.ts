import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { observeRestAnswers, type ObservedAnswer } from '../../rest-compat/answer-observer.js';

/**
 * With OPENAPI_RECORD=<dir>, every REST v5 answer of the test files run is appended to
 * `<dir>/<pid>.jsonl` (test/setup.ts installs this), for test/openapi.test.ts to check against
 * docs/openapi.json (OPENAPI_ANSWERS=<dir>).
 */
export function recordAnswersTo(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${process.pid}.jsonl`);
  observeRestAnswers((answer: ObservedAnswer) => {
    if (answer.version !== 'v5') return;
    appendFileSync(file, JSON.stringify(answer) + '\n');
  });
}

/** Collects answers in memory (a test's own run). */
export function collectAnswers(): { answers: ObservedAnswer[]; stop: () => void } {
  const answers: ObservedAnswer[] = [];
  observeRestAnswers((answer) => answers.push(answer));
  return { answers, stop: () => observeRestAnswers(null) };
}
