/** A non-JSON answer a route's `shape` can return: the bytes of a stored file, or a redirect. */
export class FileReply {
  constructor(
    /** The file (in `services.downloads`) whose access the route's document just checked. */
    readonly fileId: number,
    readonly contentType: string,
    readonly headers: Record<string, string> = {},
    /** A file inside that package (`services.versionBrowse`) instead of the package itself. */
    readonly member?: string,
  ) {}
}

export class RedirectReply {
  constructor(
    readonly location: string,
    /** Extra headers; several values of one (`Set-Cookie`) as an array. */
    readonly headers: Record<string, string | string[]> = {},
  ) {}
}

/** A JSON answer with headers of its own (a cookie set or cleared). */
export class JsonReply {
  constructor(
    readonly body: unknown,
    readonly headers: Record<string, string | string[]> = {},
  ) {}
}
