/** Bounds on what the compiler reads, so that no input can exhaust time or memory. */
export const LIMITS = {
  /** Largest spec file, in bytes. 5,000 entities with rules and machines take about 8 MiB. */
  maxBytes: 32 * 1024 * 1024,
  /** Deepest nesting of YAML collections. A spec needs about 8. */
  maxDepth: 64,
  /** Most YAML nodes that alias expansion may produce in one block. */
  maxAliasNodes: 10_000,
  /** Longest expression, in characters. */
  maxExpressionLength: 4_096,
} as const;
