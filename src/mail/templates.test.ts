import { defineMail, MailTemplateError, SIGNATURE_LINE, type MailTemplate } from './template.js';
import { mails } from './templates.js';

/** No line break (CR, LF, VT, FF, NEL, U+2028/9) nor other control character but tab. */
const isHeaderSafe = (value: string) =>
  [...value].every((c) => {
    const code = c.codePointAt(0)!;
    return code === 0x09 || (code >= 0x20 && code !== 0x7f && code !== 0x85 && code !== 0x2028 && code !== 0x2029);
  });

/** A distinct value per placeholder, so each one can be found in the output. */
const sample = (template: MailTemplate<string>) =>
  Object.fromEntries(template.placeholders.map((p) => [p, `<${p}-value>`])) as Record<string, string>;

describe('the service’s mail templates', () => {
  it.each(Object.entries(mails) as [string, MailTemplate<string>][])(
    '%s renders every placeholder, one-line subject, footer last',
    (_, template) => {
      const values = sample(template);
      const { subject, text } = template.render(values);
      const all = `${subject}\n${text}`;
      for (const value of Object.values(values)) expect(all).toContain(value);
      expect(all).not.toMatch(/\{\{|\}\}/);
      expect(subject).not.toMatch(/[\r\n]/);
      expect(subject.trim()).not.toBe('');
      // The footer (why the recipient got it) closes the mail, after the signature line.
      const footer = text.slice(text.lastIndexOf(`\n${SIGNATURE_LINE}\n`) + SIGNATURE_LINE.length + 2);
      expect(text).toContain(`\n\n${SIGNATURE_LINE}\n`);
      expect(footer).toMatch(/^You get this mail because /);
      expect(text.endsWith('\n')).toBe(false);
    },
  );

  it('decision mails keep the action, name, version, comments and history link', () => {
    const values = {
      addonName: 'Tab Tamer',
      version: '2.4.6',
      comments: 'Source code?',
      versionUrl: 'http://addons.test/developers/addon/tab-tamer/versions/7',
      serviceName: 'Vendor',
    };
    const subjects = {
      reviewApproved: 'Approved: Tab Tamer 2.4.6',
      reviewRejected: 'Rejected: Tab Tamer 2.4.6',
      reviewInformationRequested: 'More information requested: Tab Tamer 2.4.6',
      reviewComment: 'Comment: Tab Tamer 2.4.6',
    } as const;
    for (const [name, subject] of Object.entries(subjects) as [keyof typeof subjects, string][]) {
      const mail = mails[name].render(values);
      expect(mail.subject).toBe(subject);
      expect(mail.text).toMatch(/\b[Vv]ersion 2\.4\.6 of Tab Tamer\b/);
      expect(mail.text).toContain('\nSource code?\n');
      expect(mail.text).toContain('\nhttp://addons.test/developers/addon/tab-tamer/versions/7\n');
      expect(mail.text).toContain('an author of Tab Tamer on Vendor Add-ons');
      expect(mail.text).toMatch(/Reply to it to answer the reviewer/);
    }
  });

  it('the subscription mail says how to unsubscribe through the reviewer API', () => {
    const mail = mails.subscriptionNewVersion.render({
      serviceName: 'Vendor',
      addonName: 'Tab Tamer',
      version: '3.0',
      channel: 'unlisted',
      reviewUrl: 'http://addons.test/reviewers/review-unlisted/9',
      unsubscribeUrl: 'http://addons.test/api/v4/reviewers/addon/9/unsubscribe_unlisted/',
    });
    expect(mail.subject).toBe('Vendor Add-ons: Tab Tamer updated');
    expect(mail.text).toContain('A new unlisted version of Tab Tamer, 3.0, was submitted.');
    expect(mail.text).toContain('Review it: http://addons.test/reviewers/review-unlisted/9');
    expect(mail.text).toMatch(
      /subscribed to the unlisted versions of Tab Tamer\. .*\nPOST http:\/\/addons\.test\/api\/v4\/reviewers\/addon\/9\/unsubscribe_unlisted\/$/,
    );
  });
});

describe('rendering', () => {
  const greeting = defineMail('greeting', {
    placeholders: ['name', 'other'],
    subject: 'Hello {{name}}',
    body: 'Dear {{name}}, {{other}}.',
    footer: 'You get this mail because of a test.',
  });

  it('inserts values literally: placeholders inside values are not expanded', () => {
    const mail = greeting.render({ name: '{{other}}', other: '{{name}} $& $1 {{' });
    expect(mail.subject).toBe('Hello {{other}}');
    expect(mail.text).toBe(
      `Dear {{other}}, {{name}} $& $1 {{.\n\n${SIGNATURE_LINE}\nYou get this mail because of a test.`,
    );
  });

  it('keeps line breaks out of the subject (a value cannot add a header)', () => {
    for (const name of ['a\r\nBcc: x@example.com', 'a\nBcc: x', 'a\rb', 'a\u2028b\u0085c', 'a\x00\x0b\x0cb']) {
      const { subject, text } = greeting.render({ name, other: 'x' });
      expect(isHeaderSafe(subject)).toBe(true);
      expect(subject.startsWith('Hello a ')).toBe(true);
      // The body keeps the value as it is.
      expect(text).toContain(`Dear ${name},`);
    }
    expect(greeting.render({ name: 'a\r\n\r\nb', other: 'x' }).subject).toBe('Hello a b');
  });

  it('fails on a missing value instead of rendering a blank', () => {
    expect(() => greeting.render({ name: 'x' } as never)).toThrow(/no value for \{\{other\}\}/);
    expect(() => greeting.render({ name: 'x', other: undefined } as never)).toThrow(MailTemplateError);
    expect(() => greeting.render(Object.create({ name: 'x', other: 'y' }) as never)).toThrow(MailTemplateError);
  });

  it('is linear: a large value with many braces renders quickly and unchanged', () => {
    const big = '{{name}}'.repeat(200_000);
    const started = performance.now();
    const { text } = greeting.render({ name: big, other: big });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(text.length).toBe(
      `Dear , .\n\n${SIGNATURE_LINE}\nYou get this mail because of a test.`.length + 2 * big.length,
    );
  });
});

describe('defining a template', () => {
  const spec = {
    placeholders: ['name'] as const,
    subject: 'Hi {{name}}',
    body: 'Body {{name}}',
    footer: 'You get this mail because of a test.',
  };
  const define = (changes: Partial<Record<keyof typeof spec, unknown>>) => () =>
    defineMail('broken', { ...spec, ...changes } as typeof spec);

  it('refuses placeholders it does not declare, in subject, body or footer', () => {
    expect(define({ subject: 'Hi {{nmae}}' })).toThrow(
      'Mail template broken: unknown placeholder {{nmae}} in the subject',
    );
    expect(define({ body: 'Body {{name}} {{addon}}' })).toThrow(/unknown placeholder \{\{addon\}\}/);
    expect(define({ footer: 'Because {{why}}' })).toThrow(/unknown placeholder \{\{why\}\}/);
  });

  it('refuses malformed placeholders and declared ones it never uses', () => {
    expect(define({ body: 'Body {{ name }}' })).toThrow(/malformed placeholder/);
    expect(define({ body: 'Body {{name}' })).toThrow(/unclosed/);
    expect(define({ body: 'Body {name}} {{name}}' })).toThrow(/stray "\}\}"/);
    expect(define({ placeholders: ['name', 'unused'] })).toThrow(/\{\{unused\}\} is declared but not used/);
    expect(define({ placeholders: ['name', 'name'] })).toThrow(/declared twice/);
  });

  it('refuses a subject of several lines and a mail without a footer', () => {
    expect(define({ subject: 'Hi\n{{name}}' })).toThrow(/more than one line/);
    expect(define({ footer: '  ' })).toThrow(/no footer/);
    expect(define({ subject: '' })).toThrow(/empty subject/);
  });
});
