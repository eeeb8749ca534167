import { AppError, errors } from './errors.js';
import { FieldErrorCollector } from './field-errors.js';
import { fieldMessages } from './messages.js';

describe('FieldErrorCollector', () => {
  it('keeps fields in the order first reported and messages in the order added', () => {
    const p = new FieldErrorCollector();
    expect(p.add('b', fieldMessages.required)).toBeNull();
    p.add('a', fieldMessages.null);
    p.add('b', fieldMessages.blank);
    expect(p.check('c', null)).toBe(false);
    expect(p.check('c', fieldMessages.maxLength(3))).toBe(true);
    p.addAll('d', []);
    expect(JSON.stringify(p.fields)).toBe(
      JSON.stringify({
        b: ['This field is required.', 'This field may not be blank.'],
        a: ['This field may not be null.'],
        c: ['Ensure this field has no more than 3 characters.'],
      }),
    );
    expect([p.has(), p.has('a'), p.has('d')]).toEqual([true, true, false]);
  });

  it('throws nothing without problems, else one VALIDATION_FAILED with them all', () => {
    const p = new FieldErrorCollector();
    expect(() => p.throwIfAny()).not.toThrow();
    p.add('name', fieldMessages.blank);
    expect(() => p.throwIfAny()).toThrow(expect.objectContaining({ fields: { name: [fieldMessages.blank] } }));
  });

  it('absorbs the field messages of an error and throws other errors again', () => {
    const p = new FieldErrorCollector();
    p.absorb(errors.validation({ x: ['one'], y: ['two'] }));
    p.absorb(errors.field('x', 'three'), 'x');
    expect(p.fields).toEqual({ x: ['one', 'three'], y: ['two'] });
    const other = new Error('boom');
    expect(() => p.absorb(other)).toThrow(other);
    expect(() => p.absorb(errors.field('z', 'four'), 'x')).toThrow(AppError);
  });

  it('length-checks translations and plain texts before keeping them', () => {
    const p = new FieldErrorCollector();
    expect(p.translated('name', { 'en-US': 'x'.repeat(51) }, null, 'en-US', 50)).toBeNull();
    expect(p.translated('summary', 'short', null, 'en-US', 250)).toEqual({ 'en-US': 'short' });
    expect(p.text('homepage', '  ', 'kept', 255)).toBeNull();
    expect(p.text('homepage', undefined, 'kept', 255)).toBe('kept');
    expect(p.fields).toEqual({ name: [fieldMessages.maxLength(50)] });
  });
});
