import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { buildAppSchema } from '../../src/modules.js';
import { routes } from '../../rest-compat/routes/index.js';
import { buildOpenApi } from './document.js';

export const OPENAPI_FILE = new URL('../../docs/openapi.json', import.meta.url);

/** docs/openapi.json's text, formatted as the repository's prettier configuration says. */
export async function renderOpenApi(): Promise<{ text: string; unmatched: string[] }> {
  const { document, unmatched } = buildOpenApi(routes, await buildAppSchema(null));
  const filepath = fileURLToPath(OPENAPI_FILE);
  const text = await format(JSON.stringify(document), { ...(await resolveConfig(filepath)), filepath });
  return { text, unmatched };
}
