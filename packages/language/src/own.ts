/**
 * `record[key]` only when the record itself holds the key. Names in a spec are user text, and a
 * plain lookup of `constructor` or `toString` would find the object's prototype instead.
 *
 * @example own({ Claim: 1 }, 'toString') // undefined
 */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}
