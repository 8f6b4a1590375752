/**
 * The compose example of docs/deploy.md (decision 0061), read as Docker Compose would read it and
 * held to what the page says: three instances of one image behind nginx, the migration as a one-off
 * service they wait for, `--trust-proxy` naming the proxy's fixed address, no password written out,
 * and the events stream unbuffered with a read timeout above its heartbeat. `docker compose config`
 * needs the compose plugin, which this project's machines lack: the YAML is parsed here instead.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVENT_HEARTBEAT_MS } from '@ninefold/model';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { isPinned } from './dockerfile.js';

const repo = fileURLToPath(new URL('..', import.meta.url));
const page = readFileSync(join(repo, 'docs', 'deploy.md'), 'utf8');
const dockerfile = readFileSync(join(repo, 'Dockerfile'), 'utf8');

/** The fenced block of a language (its info string) whose first line is `first`. */
function block(language: string, first: string): string {
  const blocks: { language: string; lines: string[] }[] = [];
  let open: { language: string; lines: string[] } | undefined;
  for (const line of page.split('\n')) {
    if (line.startsWith('```')) {
      if (open === undefined) {
        open = { language: line.slice(3).trim(), lines: [] };
      } else {
        blocks.push(open);
        open = undefined;
      }
    } else {
      open?.lines.push(line);
    }
  }
  const found = blocks.find((b) => b.language === language && b.lines[0] === first);
  if (found === undefined) throw new Error(`docs/deploy.md has no ${language} block starting with ${first}`);
  return found.lines.join('\n');
}

interface Service {
  image: string;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  networks?: string[] | Record<string, { ipv4_address?: string }>;
  configs?: { source: string; target: string }[];
}
interface Compose {
  services: Record<string, Service>;
  configs: Record<string, { content: string }>;
  networks: Record<string, { ipam: { config: { subnet: string }[] } }>;
}

const compose = parse(block('yaml', '# compose.yaml'), { maxAliasCount: 100 }) as Compose;
const { services } = compose;
const apps = Object.entries(services).filter(([, s]) => s.command?.[0] === 'start');
const proxy = services['proxy']!;
const proxyAddress = (proxy.networks as Record<string, { ipv4_address?: string }>)['back']?.ipv4_address;
const nginx = compose.configs[proxy.configs![0]!.source]!.content;

/** The value after `flag` in a command. */
const flag = (command: readonly string[] | undefined, name: string) =>
  command === undefined ? undefined : command[command.indexOf(name) + 1];

describe('the compose example of docs/deploy.md', () => {
  it('runs three instances of one image, none of which migrates, after the migration succeeded', () => {
    expect(apps.map(([name]) => name)).toEqual(['app1', 'app2', 'app3']);
    const migrate = services['migrate']!;
    expect(migrate.command?.slice(0, 1)).toEqual(['migrate']);
    expect(migrate.command).toContain('--apply');
    for (const [name, app] of apps) {
      expect(app.image, name).toBe(migrate.image);
      expect(app.command, name).not.toContain('--migrate');
      expect(app.depends_on?.['migrate']?.condition, name).toBe('service_completed_successfully');
      expect(flag(app.command, '--host'), name).toBe('0.0.0.0');
      // the image's health check asks port 3000
      expect(flag(app.command, '--port'), name).toBe('3000');
      expect(app.environment?.['DATABASE_URL'], name).toMatch(/^postgres:\/\/.*@postgres:5432\//);
    }
    expect(services['migrate']!.depends_on?.['postgres']?.condition).toBe('service_healthy');
  });

  it('mounts the spec where the image’s default command reads it', () => {
    const cmd = /^CMD \[(.*)\]$/m.exec(dockerfile)?.[1] ?? '';
    const specPath = JSON.parse(`[${cmd}]`)[1] as string;
    for (const [name, app] of [...apps, ['migrate', services['migrate']!] as const]) {
      expect(
        app.volumes?.some((v) => v.endsWith(`:${specPath}:ro`)),
        name,
      ).toBe(true);
      expect(app.command, name).toContain(specPath);
    }
  });

  it('trusts exactly the proxy, at its fixed address inside the network’s range', () => {
    expect(proxyAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const subnet = compose.networks['back']!.ipam.config[0]!.subnet;
    expect(subnet.startsWith(proxyAddress!.split('.').slice(0, 3).join('.') + '.')).toBe(true);
    for (const [name, app] of apps) expect(flag(app.command, '--trust-proxy'), name).toBe(proxyAddress);
  });

  it('writes out no password, and pins every image it pulls', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const [key, value] of Object.entries(service.environment ?? {})) {
        if (/PASSWORD|SECRET|TOKEN/.test(key)) expect(value, `${name} ${key}`).toMatch(/^\$\{[A-Z_]+:\?/);
        // a URL's password comes from the environment too
        const password = /:\/\/[^:/@]+:([^@]+)@/.exec(value)?.[1];
        if (password !== undefined) expect(password, `${name} ${key}`).toMatch(/^\$\{[A-Z_]+/);
      }
      if (service.image !== 'ninefold:local') expect(isPinned(service.image), service.image).toBe(true);
    }
  });

  it('balances over the three instances and streams the events unbuffered, beyond the heartbeat', () => {
    for (const [name] of apps) expect(nginx).toContain(`server ${name}:3000;`);
    const events = /location = \/api\/events \{([^}]*)\}/.exec(nginx)?.[1] ?? '';
    expect(events).toContain('proxy_buffering off;');
    const timeout = Number(/proxy_read_timeout (\d+)s;/.exec(events)?.[1]);
    expect(timeout * 1000).toBeGreaterThan(EVENT_HEARTBEAT_MS);
    expect(nginx).toContain('proxy_set_header X-Forwarded-For');
    expect(nginx).toContain('proxy_set_header X-Forwarded-Proto');
    // Compose interpolates `$NAME` in a config's content: nginx's variables must be written `$$`
    expect(nginx.replaceAll('$$', '')).not.toContain('$');
  });

  it('checks /ready in the HAProxy example, with a server timeout beyond the heartbeat', () => {
    const haproxy = block('', 'backend ninefold');
    expect(haproxy).toContain('option httpchk GET /ready');
    const timeout = Number(/timeout server (\d+)s/.exec(haproxy)?.[1]);
    expect(timeout * 1000).toBeGreaterThan(EVENT_HEARTBEAT_MS);
  });
});
