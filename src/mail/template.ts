/**
 * Plain-text mail templates with named placeholders (`{{addonName}}`), written as typed TypeScript
 * modules (`templates.ts`) rather than `.txt` files: they compile with the sources, so the build
 * copies nothing and neither `npm start` (dist/) nor the tests (src/ through swc) look for files at
 * run time; each template declares its placeholders, so `tsc` checks that every sender passes
 * exactly those values.
 *
 * `defineMail` parses a template once, when its module is imported (that is, at startup and in any
 * test that imports it), and throws on a placeholder it does not declare, on a declared one it never
 * uses, on a malformed one (`{{ name }}`, `{{name}`, a stray `}}`), on a subject of more than one line
 * and on a missing footer: a broken template stops the service instead of sending blanks.
 *
 * Rendering walks the parsed parts once (linear in the template and the values) and inserts each
 * value as it is: a value is never scanned for placeholders, so `{{x}}` in an add-on name stays
 * literal. Values in the subject lose their line breaks and other control characters (each run
 * becomes one space), so no value reaches a header line of its own. Every body ends with the
 * template's footer, after a `-- ` signature line: why the recipient got the mail.
 */

export interface MailText {
  subject: string;
  text: string;
}

export interface MailTemplate<K extends string> {
  readonly name: string;
  readonly placeholders: readonly K[];
  render(values: Readonly<Record<K, string>>): MailText;
}

export interface MailSpec<K extends string> {
  /** Every placeholder the subject, body and footer use, and no other. */
  placeholders: readonly K[];
  /** One line. */
  subject: string;
  body: string;
  /** Why the recipient gets this mail (and how to stop it, where they can). */
  footer: string;
}

export class MailTemplateError extends Error {
  override name = 'MailTemplateError';
}

type Part = string | { placeholder: string };

const NAME = /^[A-Za-z][A-Za-z0-9]*$/;
/** Line breaks (CR, LF, VT, FF, NEL, U+2028/9) and the other control characters, tab excepted. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const HEADER_UNSAFE = /[\x00-\x08\x0a-\x1f\x7f\u0085\u2028\u2029]+/g;
export const SIGNATURE_LINE = '-- ';

export function defineMail<const K extends string>(name: string, spec: MailSpec<K>): MailTemplate<K> {
  const fail = (problem: string): never => {
    throw new MailTemplateError(`Mail template ${name}: ${problem}`);
  };
  const declared = new Set<string>(spec.placeholders);
  if (declared.size !== spec.placeholders.length) fail('a placeholder is declared twice');
  for (const placeholder of declared) if (!NAME.test(placeholder)) fail(`bad placeholder name "${placeholder}"`);
  if (!spec.subject.trim()) fail('empty subject');
  if (/[\r\n]/.test(spec.subject)) fail('the subject is more than one line');
  if (!spec.footer.trim()) fail('no footer (why the recipient gets this mail)');

  const used = new Set<string>();
  const parse = (source: string, where: string): Part[] => {
    const parts: Part[] = [];
    const literal = (text: string) => {
      if (text.includes('}}')) fail(`stray "}}" in the ${where}`);
      if (text) parts.push(text);
    };
    let at = 0;
    for (let open = source.indexOf('{{'); open >= 0; open = source.indexOf('{{', at)) {
      literal(source.slice(at, open));
      const close = source.indexOf('}}', open + 2);
      if (close < 0) fail(`unclosed "{{" in the ${where}`);
      const placeholder = source.slice(open + 2, close);
      if (!NAME.test(placeholder)) fail(`malformed placeholder "{{${placeholder}}}" in the ${where}`);
      if (!declared.has(placeholder)) fail(`unknown placeholder {{${placeholder}}} in the ${where}`);
      used.add(placeholder);
      parts.push({ placeholder });
      at = close + 2;
    }
    literal(source.slice(at));
    return parts;
  };
  const subject = parse(spec.subject, 'subject');
  const text = parse(`${spec.body.trimEnd()}\n\n${SIGNATURE_LINE}\n${spec.footer.trim()}`, 'body or footer');
  for (const placeholder of declared) if (!used.has(placeholder)) fail(`{{${placeholder}}} is declared but not used`);

  const fill = (parts: Part[], values: Readonly<Record<string, string>>, clean: (value: string) => string) => {
    let out = '';
    for (const part of parts) out += typeof part === 'string' ? part : clean(values[part.placeholder]);
    return out;
  };
  return {
    name,
    placeholders: spec.placeholders,
    render(values) {
      // Callers compiled by swc are not type-checked: a missing value fails instead of rendering blank.
      for (const placeholder of declared) {
        if (
          !Object.hasOwn(values, placeholder) ||
          typeof (values as Record<string, unknown>)[placeholder] !== 'string'
        ) {
          fail(`no value for {{${placeholder}}}`);
        }
      }
      return {
        subject: fill(subject, values, (value) => value.replace(HEADER_UNSAFE, ' ')),
        text: fill(text, values, (value) => value),
      };
    },
  };
}
