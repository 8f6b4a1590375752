/**
 * Markdown from the spec (its prose, a page's body) as React elements. The tokens come from
 * `marked`'s lexer and are rendered here, element by element: raw HTML in a spec is shown as text,
 * never injected, and links go only to http(s), mailto or the app's own paths.
 */
import '../styles/markdown';
import { Anchor, Blockquote, Code, List, Table, Text, Title } from '@mantine/core';
import { type Token, type Tokens, lexer } from 'marked';
import { Fragment, type ReactNode, useMemo } from 'react';
import { Link } from 'react-router';

export function Markdown({ source, headingOffset = 1 }: { source: string; headingOffset?: number }) {
  const tokens = useMemo(() => lexer(source), [source]);
  return <div className="nf-markdown">{blocks(tokens, headingOffset)}</div>;
}

function blocks(tokens: readonly Token[], offset: number): ReactNode[] {
  return tokens.map((token, i) => <Fragment key={i}>{block(token, offset)}</Fragment>);
}

function block(token: Token, offset: number): ReactNode {
  switch (token.type) {
    case 'heading': {
      const t = token as Tokens.Heading;
      const order = Math.min(6, t.depth + offset) as 1 | 2 | 3 | 4 | 5 | 6;
      return (
        <Title order={order} mt="md" mb="xs">
          {inline(t.tokens)}
        </Title>
      );
    }
    case 'paragraph':
      return <Text mb="sm">{inline((token as Tokens.Paragraph).tokens)}</Text>;
    case 'list': {
      const t = token as Tokens.List;
      return (
        <List type={t.ordered ? 'ordered' : 'unordered'} mb="sm" spacing={4}>
          {t.items.map((item, i) => (
            <List.Item key={i}>
              {item.tokens.map((child, j) => (
                <Fragment key={j}>{listChild(child, offset)}</Fragment>
              ))}
            </List.Item>
          ))}
        </List>
      );
    }
    case 'blockquote':
      return <Blockquote mb="sm">{blocks((token as Tokens.Blockquote).tokens, offset)}</Blockquote>;
    case 'code':
      return (
        <Code block mb="sm">
          {(token as Tokens.Code).text}
        </Code>
      );
    case 'table': {
      const t = token as Tokens.Table;
      return (
        <Table mb="sm" withTableBorder>
          <Table.Thead>
            <Table.Tr>
              {t.header.map((cell, i) => (
                <Table.Th key={i}>{inline(cell.tokens)}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {t.rows.map((row, i) => (
              <Table.Tr key={i}>
                {row.map((cell, j) => (
                  <Table.Td key={j}>{inline(cell.tokens)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      );
    }
    case 'hr':
      return <hr />;
    case 'space':
      return null;
    default:
      return 'text' in token && typeof token.text === 'string' ? <Text mb="sm">{token.text}</Text> : null;
  }
}

function listChild(token: Token, offset: number): ReactNode {
  // a tight list item holds "text" tokens with inline children
  if (token.type === 'text' && 'tokens' in token && Array.isArray(token.tokens))
    return inline(token.tokens as Token[]);
  return block(token, offset);
}

function inline(tokens: readonly Token[] | undefined): ReactNode[] {
  return (tokens ?? []).map((token, i) => <Fragment key={i}>{span(token)}</Fragment>);
}

function span(token: Token): ReactNode {
  switch (token.type) {
    case 'strong':
      return <strong>{inline((token as Tokens.Strong).tokens)}</strong>;
    case 'em':
      return <em>{inline((token as Tokens.Em).tokens)}</em>;
    case 'codespan':
      return <Code>{(token as Tokens.Codespan).text}</Code>;
    case 'del':
      return <del>{inline((token as Tokens.Del).tokens)}</del>;
    case 'br':
      return <br />;
    case 'link': {
      const t = token as Tokens.Link;
      const href = t.href.trim();
      if (href.startsWith('/') && !href.startsWith('//')) {
        return (
          <Anchor component={Link} to={href}>
            {inline(t.tokens)}
          </Anchor>
        );
      }
      if (/^(https?:|mailto:)/i.test(href)) {
        return (
          <Anchor href={href} target="_blank" rel="noopener noreferrer">
            {inline(t.tokens)}
          </Anchor>
        );
      }
      return <>{inline(t.tokens)}</>;
    }
    case 'text': {
      const t = token as Tokens.Text;
      return t.tokens !== undefined ? inline(t.tokens) : decode(t.text);
    }
    case 'escape':
      return (token as Tokens.Escape).text;
    default:
      return 'raw' in token ? token.raw : null;
  }
}

/** marked escapes nothing in tokens' text except entities it decoded; show them as characters. */
function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) =>
    name === 'amp' ? '&' : name === 'lt' ? '<' : name === 'gt' ? '>' : name === 'quot' ? '"' : "'",
  );
}
