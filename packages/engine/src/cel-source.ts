/**
 * CEL source of an AST node, fully parenthesised, so that a subtree can be evaluated on its own.
 * (The library's own serializer drops parentheses: `-(2) - (0 + 5)` comes back as `-2 - 0 + 5`.)
 */
import { type ASTNode } from '@marcbachmann/cel-js';

/**
 * @example celSource(env.parse('a - (b + c)').ast) // '(a - (b + c))'
 */
export function celSource(n: ASTNode): string {
  switch (n.op) {
    case 'value':
      return literal(n.args);
    case 'id':
      return n.args;
    case '.':
      return `${celSource(n.args[0])}.${n.args[1]}`;
    case '.?':
      return `${celSource(n.args[0])}.?${n.args[1]}`;
    case '[]':
      return `${celSource(n.args[0])}[${celSource(n.args[1])}]`;
    case '[?]':
      return `${celSource(n.args[0])}[?${celSource(n.args[1])}]`;
    case 'call':
      return `${n.args[0]}(${n.args[1].map(celSource).join(', ')})`;
    case 'rcall':
      return `${celSource(n.args[1])}.${n.args[0]}(${n.args[2].map(celSource).join(', ')})`;
    case 'list':
      return `[${n.args.map(celSource).join(', ')}]`;
    case 'map':
      return `{${n.args.map(([k, v]) => `${celSource(k)}: ${celSource(v)}`).join(', ')}}`;
    case '?:':
      return `(${celSource(n.args[0])} ? ${celSource(n.args[1])} : ${celSource(n.args[2])})`;
    case '!_':
      return `!(${celSource(n.args)})`;
    case '-_':
      return `-(${celSource(n.args)})`;
    default: {
      const [a, b] = n.args as [ASTNode, ASTNode];
      return `(${celSource(a)} ${n.op} ${celSource(b)})`;
    }
  }
}

function literal(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'bigint') return value < 0n ? `(${value})` : String(value);
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return "double('NaN')";
    if (!Number.isFinite(value)) return value > 0 ? "double('Infinity')" : "double('-Infinity')";
    const text = Number.isInteger(value) && !/e/i.test(String(value)) ? `${value}.0` : String(value);
    return value < 0 ? `(${text})` : text;
  }
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'boolean') return String(value);
  throw new TypeError('bytes and unsigned literals are not written back as source');
}
