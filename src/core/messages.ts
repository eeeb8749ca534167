/**
 * The field messages of the original's serializers (Django REST framework's defaults, and the few
 * of the original's own that several services share), worded exactly as the original words them:
 * clients compare them byte for byte. Every service and REST mapper takes them from here; a
 * domain's own messages stay with the domain.
 */
export const fieldMessages = {
  required: 'This field is required.',
  null: 'This field may not be null.',
  blank: 'This field may not be blank.',
  /** `CharField` refusing a NUL character. */
  nullCharacters: 'Null characters are not allowed.',
  minLength: (min: number) => `Ensure this field has at least ${min} characters.`,
  maxLength: (max: number) => `Ensure this field has no more than ${max} characters.`,
  string: 'Not a valid string.',
  integer: 'A valid integer is required.',
  boolean: 'Must be a valid boolean.',
  minValue: (min: number) => `Ensure this value is greater than or equal to ${min}.`,
  maxValue: (max: number) => `Ensure this value is less than or equal to ${max}.`,
  choice: (value: string) => `"${value}" is not a valid choice.`,
  url: 'Enter a valid URL.',
  email: 'Enter a valid email address.',
  pkDoesNotExist: (pk: number) => `Invalid pk "${pk}" - object does not exist.`,
  /** An add-on named by id or slug (collections, shelves). */
  pkOrSlugDoesNotExist: (value: string) => `Invalid pk or slug "${value}" - object does not exist.`,
  pkIncorrectType: (type: string) => `Incorrect type. Expected pk value, received ${type}.`,
  /** The original's link test on free texts (biographies, collection descriptions). */
  noLinks: 'No links are allowed.',
} as const;
