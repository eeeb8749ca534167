import type { Response } from 'express';

/** A GET request's `variables` and `extensions`, parsed once (server.ts `parseGetParams`). */
export interface GetParams {
  variables?: unknown;
  extensions?: unknown;
  /** One of them is not JSON: Apollo answers that request itself. */
  malformed: boolean;
}

/** The parsed parameters of a GET request to /graphql; undefined for other methods. */
export function getParams(res: Response): GetParams | undefined {
  return res.locals.graphqlGetParams as GetParams | undefined;
}
