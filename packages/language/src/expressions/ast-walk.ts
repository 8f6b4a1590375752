/**
 * Walking a CEL syntax tree: the direct children of a node, and every node that passes a test, in
 * source order. The checks that read an expression's shape (time-notation.ts, the names a field
 * shadows) share it.
 */
import { type ASTNode } from '@marcbachmann/cel-js';

/** The nodes directly under `n`; a selection's field name and a call's function name are not nodes. */
export function childrenOf(n: ASTNode): readonly ASTNode[] {
  switch (n.op) {
    case 'id':
    case 'value':
      return [];
    case '.':
    case '.?':
      return [n.args[0]];
    case 'call':
      return n.args[1];
    case 'rcall':
      return [n.args[1], ...n.args[2]];
    case 'list':
      return n.args;
    case 'map':
      return n.args.flat();
    case '!_':
    case '-_':
      return [n.args];
    default:
      return n.args as ASTNode[];
  }
}

/**
 * Every node of the tree for which `test` holds, in source order.
 *
 * @example findNodes(ast, (n) => n.op === 'id' && n.args === 'user') // each bare `user`
 */
export function findNodes(root: ASTNode, test: (n: ASTNode) => boolean): ASTNode[] {
  const out: ASTNode[] = [];
  const visit = (n: ASTNode) => {
    if (test(n)) out.push(n);
    for (const child of childrenOf(n)) visit(child);
  };
  visit(root);
  return out.sort((a, b) => a.range.start - b.range.start);
}
