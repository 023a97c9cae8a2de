/**
 * Makes `prototype` (of a class standing in for a web Request or Response) answer every member of
 * `webPrototype` it doesn't define itself, and the instance's `own` fields, by asking the real
 * object `web(self)` returns; then chains it to `webPrototype` so `instanceof` holds. Without the
 * first step an inherited getter would be called on the stand-in and throw "Illegal invocation".
 */
export function delegateToWeb<Self, Web extends object>(
  prototype: object,
  webPrototype: Web,
  web: (self: Self) => Web,
  own: readonly PropertyKey[],
): void {
  for (const key of Reflect.ownKeys(webPrototype)) {
    if (key === "constructor" || key === Symbol.toStringTag || own.includes(key) || Object.hasOwn(prototype, key))
      continue;
    const descriptor = Object.getOwnPropertyDescriptor(webPrototype, key)!;
    const member = key as keyof Web;
    Object.defineProperty(
      prototype,
      key,
      typeof descriptor.value === "function"
        ? {
            configurable: true,
            value(this: Self, ...args: unknown[]) {
              const target = web(this);
              return (target[member] as (...a: unknown[]) => unknown).apply(target, args);
            },
          }
        : {
            configurable: true,
            get(this: Self) {
              return web(this)[member];
            },
          },
    );
  }
  Object.setPrototypeOf(prototype, webPrototype);
}
