/**
 * Steps a lower module runs that modules above it provide, so that the arrow between them points
 * down: e.g. accounts runs "what deleting an account reaches" and ratings and the catalogue provide
 * those steps. Each step is provided once, while the modules are composed; `steps` is read when a
 * step is run, so the order in which the modules were built does not matter.
 */
export class Hooks<T extends object> {
  private readonly provided: Partial<T> = {};

  constructor(private readonly owner: string) {}

  provide(steps: Partial<T>): void {
    for (const [name, step] of Object.entries(steps) as [keyof T, T[keyof T]][]) {
      if (this.provided[name] !== undefined) throw new Error(`${this.owner}: ${String(name)} is provided twice`);
      this.provided[name] = step;
    }
  }

  get steps(): Readonly<Partial<T>> {
    return this.provided;
  }
}
