import { type ASTNode } from '@marcbachmann/cel-js';

/**
 * The part of CEL that becomes SQL: what read permissions and list filters may use, because they
 * run inside the database's WHERE clause. Returns null when the whole expression translates, or
 * the node that does not and why.
 *
 * Record fields, `self.field`, literals, constants, `user.*`, `now`, `today` and `own`; comparisons,
 * `&&`, `||`, `!`, `?:`, arithmetic on numbers, `in` over a list literal or `user.roles`,
 * `has(self.f)`, `size(text)` and `startsWith`, `endsWith`, `contains` on text. A list of refs
 * (a join table, decision 0044) may be the list of `in`, and the argument of `size` and `has`.
 * A file (decision 0051) may be the argument of `has`, a single one the target of its members
 * (`receipt.size`), a list of them the argument of `size`.
 */
export function sqlObstacle(
  node: ASTNode,
  isListField: (name: string) => boolean,
  isJoinList: (name: string) => boolean = () => false,
  fileField: (name: string) => 'one' | 'many' | null = () => null,
): { node: ASTNode; reason: string } | null {
  const deny = (n: ASTNode, reason: string) => ({ node: n, reason });
  /** `receipt` or `self.receipt` naming a file field: whether it holds one file or a list. */
  const files = (n: ASTNode): 'one' | 'many' | null =>
    n.op === 'id'
      ? fileField(n.args)
      : n.op === '.' && n.args[0].op === 'id' && n.args[0].args === 'self'
        ? fileField(n.args[1])
        : null;
  /** `members` or `self.members` naming a list of refs. */
  const joinList = (n: ASTNode): boolean =>
    (n.op === 'id' && isJoinList(n.args)) ||
    (n.op === '.' && n.args[0].op === 'id' && n.args[0].args === 'self' && isJoinList(n.args[1]));
  const visit = (n: ASTNode): { node: ASTNode; reason: string } | null => {
    switch (n.op) {
      case 'value':
        return typeof n.args === 'object' && n.args !== null
          ? deny(n, 'bytes and unsigned literals have no SQL form')
          : null;
      case 'id':
        if (n.args === 'old')
          return deny(n, '`old` exists only while a record is being changed, not in a query');
        if (isListField(n.args))
          return deny(n, `\`${n.args}\` is a list, and lists are not compared inside SQL queries`);
        return null;
      case '.': {
        const [target, name] = n.args;
        if (files(target) === 'one') return null;
        if (target.op === 'id' && (target.args === 'user' || target.args === 'self')) {
          return target.args === 'self' && isListField(name)
            ? deny(n, `\`${name}\` is a list, and lists are not compared inside SQL queries`)
            : null;
        }
        return deny(n, 'only `self.field` and `user.field` can be selected in a query');
      }
      case '==':
      case '!=':
      case '<':
      case '<=':
      case '>':
      case '>=':
      case '+':
      case '-':
      case '*':
      case '/':
      case '&&':
      case '||':
        return visit(n.args[0]) ?? visit(n.args[1]);
      case '%':
        return deny(n, 'the remainder operator `%` is not translated to SQL');
      case '!_':
      case '-_':
        return visit(n.args);
      case '?:':
        return visit(n.args[0]) ?? visit(n.args[1]) ?? visit(n.args[2]);
      case 'in': {
        const [item, list] = n.args;
        const isRoles = list.op === '.' && list.args[0].op === 'id' && list.args[0].args === 'user';
        if (joinList(list)) return visit(item);
        if (list.op !== 'list' && !isRoles) {
          return deny(n, "`in` needs a list written out, like `state in ['a', 'b']`, or `user.roles`");
        }
        return (
          visit(item) ?? (list.op === 'list' ? (list.args.map(visit).find((x) => x !== null) ?? null) : null)
        );
      }
      case 'list':
        return n.args.map(visit).find((x) => x !== null) ?? null;
      case 'call': {
        const [fn, args] = n.args;
        if ((fn === 'has' || fn === 'size') && args.length === 1 && joinList(args[0]!)) return null;
        const file = args.length === 1 ? files(args[0]!) : null;
        if ((fn === 'has' && file !== null) || (fn === 'size' && file === 'many')) return null;
        const arg = args[0];
        if (fn === 'has' && arg?.op === '.' && files(arg.args[0]) !== null)
          return deny(n, 'a file has every member or is absent: test the file itself, `has(receipt)`');
        if (fn === 'has' || fn === 'size') return args.map(visit).find((x) => x !== null) ?? null;
        // a duration or an instant made of what the request knows is a value bound to the query
        if ((fn === 'duration' || fn === 'timestamp') && args.every(requestTimeOnly)) return null;
        return deny(n, `the function \`${fn}\` has no SQL translation`);
      }
      case 'rcall': {
        const [fn, target, args] = n.args;
        if (fn === 'startsWith' || fn === 'endsWith' || fn === 'contains') {
          return visit(target) ?? args.map(visit).find((x) => x !== null) ?? null;
        }
        return deny(n, `the method \`${fn}\` has no SQL translation`);
      }
      default:
        return deny(n, `\`${n.op}\` has no SQL translation`);
    }
  };
  return visit(node);
}

const REQUEST_NAMES = new Set(['user', 'now', 'today']);

/** Whether a node reads only what a request knows (literals, constants, `user`, `now`, `today`). */
function requestTimeOnly(n: ASTNode): boolean {
  switch (n.op) {
    case 'value':
      return true;
    case 'id':
      return REQUEST_NAMES.has(n.args) || /^[A-Z][A-Z0-9_]*$/.test(n.args);
    case '.':
    case '.?':
      return n.args[0].op === 'id' && n.args[0].args === 'user';
    case 'call':
      return n.args[1].every(requestTimeOnly);
    case 'rcall':
      return requestTimeOnly(n.args[1]) && n.args[2].every(requestTimeOnly);
    case 'list':
      return n.args.every(requestTimeOnly);
    case 'map':
      return false;
    case '!_':
    case '-_':
      return requestTimeOnly(n.args);
    default:
      return (n.args as ASTNode[]).every(requestTimeOnly);
  }
}
