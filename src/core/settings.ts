import { z } from 'zod';

/**
 * Settings: what the service reads from its environment, validated once at boot. Each domain owns
 * its slice (`src/<domain>/settings.ts`: the variables, their doc comments, the rules across them);
 * the platform's own are in `src/core/platform-settings.ts`. `src/config.ts` composes the slices into
 * one `Config`. An invalid value stops the process with a message naming the variable.
 */

/**
 * Every setting's value, once parsed: each slice's file adds its own by declaration merging,
 *
 *     declare module '../core/settings.js' {
 *       interface Settings extends SettingValues<typeof shape> {}
 *     }
 *
 * so readers of `Config` see every slice's settings with their exact types.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Settings {}

/** The values a slice's variables parse to. */
export type SettingValues<Shape extends z.ZodRawShape> = z.output<z.ZodObject<Shape>>;

/** A rule across settings of one slice: when it does not hold, `key` is reported with `message`. */
export interface SettingsCheck<Values> {
  readonly key: keyof Values & string;
  readonly message: string;
  holds(values: Values): boolean;
}

/**
 * One owner's settings: its variables (zod, one per environment variable), rules and derived values.
 * `SettingsSlice` alone is any slice (what the composition takes).
 */
export interface SettingsSlice<Shape extends z.ZodRawShape = any, Derived extends object = object> {
  /** The domain (its folder under `src/`) or `platform`; named when two slices declare one variable. */
  readonly owner: string;
  readonly shape: Shape;
  /** Checked once every variable parsed, in the slices' order. */
  readonly checks?: readonly SettingsCheck<SettingValues<Shape>>[];
  /**
   * Values computed from the parsed ones (and other variables of `env`), added to the settings; may
   * throw `ConfigError`.
   */
  derive?(values: SettingValues<Shape>, env: NodeJS.ProcessEnv): Derived;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** The slices' variables in one object; a variable declared by two slices is a `ConfigError`. */
export function settingsShape(slices: readonly SettingsSlice[]): z.ZodRawShape {
  const shape: Record<string, z.ZodType> = {};
  const owners = new Map<string, string>();
  const problems: string[] = [];
  for (const slice of slices) {
    for (const [key, type] of Object.entries<z.ZodType>(slice.shape)) {
      const owner = owners.get(key);
      if (owner !== undefined) problems.push(`${key}: declared by both ${owner} and ${slice.owner}`);
      else {
        owners.set(key, slice.owner);
        shape[key] = type;
      }
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return shape;
}

/**
 * Reads the slices' settings from `env` (empty strings count as unset): every invalid variable and
 * broken rule in one `ConfigError`, then each slice's derived values.
 */
export function loadSettings(slices: readonly SettingsSlice[], env: NodeJS.ProcessEnv): Settings {
  const shape = settingsShape(slices);
  const input: Record<string, string> = {};
  for (const key of Object.keys(shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  let schema = z.object(shape);
  for (const slice of slices) {
    for (const check of slice.checks ?? []) {
      schema = schema.refine((values) => check.holds(values), { path: [check.key], message: check.message });
    }
  }
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const key = issue.path.join('.');
        const shown = key in input ? ` (got ${JSON.stringify(input[key])})` : '';
        return `${key}: ${issue.message}${shown}`;
      }),
    );
  }
  const derived = slices.map((slice) => slice.derive?.(parsed.data, env));
  return Object.assign({}, parsed.data, ...derived) as Settings;
}

/** A URL whose scheme is one of `protocols` (e.g. `['http:', 'https:']`). */
export const urlWithProtocol = (protocols: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`,
  );

/** Comma-separated items, trimmed, empty ones dropped. */
export const list = z.string().transform((v) =>
  v
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

/** `true`/`1`/`yes` or `false`/`0`/`no`. */
export const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => ['true', '1', 'yes'].includes(v));
