import { Type, type MikroORM } from '@mikro-orm/postgresql';

/** ORMs open in this module instance: the entity classes' prototypes are decorated by the last one. */
let open = 0;

/** Counts an ORM as open; its `close` must call the returned function after `orm.close()`. */
export function trackEntityDecorations(orm: MikroORM): () => void {
  open++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--open === 0) releaseEntityDecorations(orm);
  };
}

/**
 * MikroORM decorates each entity class's prototype with its configuration, platform and entity
 * factory, and with accessors whose closures hold an entity manager: a closed ORM stayed reachable,
 * its connections and (embedded) the whole PGlite instance with it, for as long as the classes
 * lived. Classes live as long as their modules, which is the process, and in Jest forever (Node
 * never releases the ES modules a test file evaluated): every test file kept its database. Once
 * the last ORM of this module instance is closed, those decorations are removed, and so is the
 * platform (its configuration, its ORM) of MikroORM's shared instances of custom types; a new ORM
 * sets both again when it starts.
 */
function releaseEntityDecorations(orm: MikroORM): void {
  for (const meta of Object.values(orm.getMetadata().getAll())) {
    const prototype = meta.prototype as Record<string, unknown> | undefined;
    if (!prototype) continue;
    for (const key of ['__config', '__platform', '__factory', '__helper']) {
      if (Object.getOwnPropertyDescriptor(prototype, key)?.configurable) delete prototype[key];
    }
    for (const name of Object.keys(meta.properties)) {
      const descriptor = Object.getOwnPropertyDescriptor(prototype, name);
      // The lazy setters MikroORM defines for tracked properties (no getter of their own).
      if (descriptor?.set && !descriptor.get && descriptor.configurable) delete prototype[name];
    }
  }
  const sharedTypes = (Type as unknown as { types: Map<unknown, { platform?: unknown }> }).types;
  for (const type of sharedTypes.values()) type.platform = undefined;
}
