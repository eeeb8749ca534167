import type { EntityManager } from '@mikro-orm/postgresql';
import type { ParseArgsConfig } from 'node:util';
import { permissionsByUserIdQuery } from '../accounts/accounts.loaders.js';
import { runSeedCommand, seedCommandOptions } from '../catalogue/seed/command.js';
import { errors } from '../core/errors.js';
import { intArray } from '../db/sql.js';
import { reindex } from '../search/reindex.js';
import type { Services } from '../modules.js';

export interface CliCommand {
  summary: string;
  usage: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** Returns the JSON the command prints on stdout. */
  run(services: Services, em: EntityManager, values: Record<string, unknown>): Promise<unknown>;
}

export interface CreatedUserOutput {
  id: number;
  username: string;
  email: string;
  permissions: string[];
  apiKey: { key: string; secret: string } | null;
  sessionToken: string | null;
}

export interface UsersCreateArgs {
  email: string;
  username?: string;
  name?: string;
  permission?: string[];
  group?: string[];
  'api-key'?: boolean;
  session?: boolean;
}

/** `users:create`: an account, optionally with an API key (which implies the developer agreement) and a session. */
export async function usersCreate(
  services: Services,
  em: EntityManager,
  args: UsersCreateArgs,
): Promise<CreatedUserOutput> {
  const user = await services.accounts.createUser(em, {
    email: args.email,
    username: args.username,
    displayName: args.name,
    permissions: args.permission,
    groups: args.group,
    readDevAgreement: Boolean(args['api-key']),
  });
  const apiKey = args['api-key'] ? await services.apiKeys.issue(em, user) : null;
  const sessionToken = args.session ? (await services.sessions.create(em, user)).token : null;
  const [row] = await em
    .getConnection()
    .execute<{ rules: string[] | null }[]>(permissionsByUserIdQuery, [intArray([user.id])]);
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    permissions: row?.rules ?? [],
    apiKey,
    sessionToken,
  };
}

function parseBoolean(name: string, value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw errors.badParameter(`--${name} must be true or false (got ${JSON.stringify(value)})`);
}

export const commands: Record<string, CliCommand> = {
  'users:create': {
    summary: 'Create a user; prints {id, username, email, permissions, apiKey, sessionToken}',
    usage:
      'users:create --email E [--username U] [--name N] [--permission P]... [--group G]... [--api-key] [--session]',
    options: {
      email: { type: 'string' },
      username: { type: 'string' },
      name: { type: 'string' },
      permission: { type: 'string', multiple: true },
      group: { type: 'string', multiple: true },
      'api-key': { type: 'boolean' },
      session: { type: 'boolean' },
    },
    run: (services, em, values) => {
      if (typeof values.email !== 'string') throw errors.badParameter('--email is required');
      return usersCreate(services, em, values as unknown as UsersCreateArgs);
    },
  },
  'users:signin-link': {
    summary:
      'Print a one-time sign-in link for an address, without mailing it (the first administrator of an install ' +
      'that delivers no mail); prints {email, url, expiresAt}',
    usage: 'users:signin-link --email E [--to PATH]   (anyone holding the URL signs in as E, once, before it expires)',
    options: {
      email: { type: 'string' },
      to: { type: 'string' },
    },
    run: async (services, em, values) => {
      if (typeof values.email !== 'string') throw errors.badParameter('--email is required');
      const { url, expiresAt } = await services.signinLinks.issue(em, values.email, values.to as string | undefined);
      return { email: values.email.trim().toLowerCase(), url, expiresAt: expiresAt.toISOString() };
    },
  },
  'site:set': {
    summary: 'Turn maintenance (read-only) mode on or off and set the site notice; prints the site status',
    usage: 'site:set [--read-only true|false] [--notice TEXT]   (an empty --notice clears it)',
    options: {
      'read-only': { type: 'string' },
      notice: { type: 'string' },
    },
    run: async (services, em, values) => {
      const readOnly = parseBoolean('read-only', values['read-only']);
      const notice = values.notice as string | undefined;
      if (readOnly === undefined && notice === undefined) throw errors.badParameter('give --read-only and/or --notice');
      const status = await services.site.update(em, { readOnly, notice });
      return { read_only: status.readOnly, notice: status.notice };
    },
  },
  'catalogue:seed': {
    summary: 'Fill the catalogue with a deterministic synthetic data set (progress on stderr); prints the row counts',
    usage: 'catalogue:seed --addons N [--seed S] [--append] [--batch-size B]',
    options: seedCommandOptions,
    run: (_services, em, values) => runSeedCommand(em, values),
  },
  'search:reindex': {
    summary: "Recompute every add-on's search columns and refill the search engine's index; prints the count",
    usage: 'search:reindex [--rebuild-postings]',
    options: { 'rebuild-postings': { type: 'boolean' } },
    run: (services, em, values) =>
      reindex(em, services.search, { rebuildPostings: values['rebuild-postings'] === true }),
  },
};
