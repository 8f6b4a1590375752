/**
 * The one helper behind the server's per-object caches: work done once per database, model, user
 * context or dialect and forgotten with it (a `WeakMap`, so that nothing outlives what it was
 * worked out for). Each use says what it saves.
 */

/**
 * `compute`, called once per key.
 *
 * @example const queriesOf = weakMemo((model: Model) => compileQueries(model)); queriesOf(model) === queriesOf(model)
 */
export function weakMemo<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const values = new WeakMap<K, V>();
  return (key) => {
    let value = values.get(key);
    if (value === undefined && !values.has(key)) {
      value = compute(key);
      values.set(key, value);
    }
    return value as V;
  };
}
