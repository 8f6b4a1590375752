/**
 * The container image (decision 0061). The Dockerfile is always linted — `dockerfile-utils`, the
 * validator of VS Code's Docker language server, for syntax and form, then our own rules: several
 * stages, every base pinned, production dependencies only in the runtime, a non-root user, a health
 * check that needs no curl, a data volume, no secret in the environment, every workspace's manifest
 * copied before the install. Where a Docker daemon answers (`docker info`), the image is also built
 * and run on a throwaway SQLite folder until `/ready` answers; where none does, the test says that
 * it did not build (this machine and CI have the client only).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';
import { type Stage, instructionsOf, isPinned, secretsIn, stagesOf } from './dockerfile.js';

const repo = fileURLToPath(new URL('..', import.meta.url));
const dockerfile = readFileSync(join(repo, 'Dockerfile'), 'utf8');
const stages = stagesOf(dockerfile);
const runtime = stages.at(-1)!;
const stageNames = new Set(stages.map((stage) => stage.name).filter((name) => name !== undefined));

const argsOf = (stage: Stage, keyword: string) =>
  stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);

describe('the Dockerfile, linted', () => {
  it('has no finding of the Dockerfile linter', () => {
    const findings = validate(dockerfile).map((d) => `${d.range.start.line + 1}: ${d.message}`);
    expect(findings).toEqual([]);
  });

  it('builds in stages, and every base image is pinned to a version', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const { image } of stages) {
      if (stageNames.has(image)) continue;
      expect(isPinned(image), `FROM ${image}`).toBe(true);
    }
    // one base family for every stage: native addons are built where they run
    expect(new Set(stages.map((stage) => stage.image)).size).toBe(1);
  });

  it('runs as a user that is not root, with a health check that needs no curl', () => {
    const users = argsOf(runtime, 'USER');
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    const [healthcheck, ...more] = argsOf(runtime, 'HEALTHCHECK');
    expect(more).toEqual([]);
    expect(healthcheck).toMatch(/CMD \["node", "-e", ".*\/health/);
    expect(healthcheck).not.toMatch(/\b(curl|wget)\b/);
    expect(argsOf(runtime, 'EXPOSE')).toEqual(['3000']);
    expect(argsOf(runtime, 'VOLUME').join(' ')).toContain('/data');
  });

  it('keeps secrets out of the environment of every stage', () => {
    for (const stage of stages) expect(secretsIn(stage), stage.name ?? stage.image).toEqual([]);
  });

  it('installs only production dependencies into what the runtime copies', () => {
    const installs = stages.flatMap((stage) =>
      argsOf(stage, 'RUN')
        .filter((run) => /\bnpm (ci|install|i)\b/.test(run))
        .map((run) => ({ stage: stage.name, run })),
    );
    expect(argsOf(runtime, 'RUN').join(' ')).not.toMatch(/\bnpm (ci|install|i)\b/);
    const copiedFrom = argsOf(runtime, 'COPY').map((args) => /--from=(\S+)/.exec(args)?.[1]);
    // what the runtime takes from a stage that installs: only the one that omits dev dependencies
    for (const { stage, run } of installs) {
      if (copiedFrom.includes(stage) && !/--omit=dev/.test(run)) {
        expect(
          argsOf(runtime, 'COPY').filter((a) => a.includes(`--from=${stage} /app/node_modules`)),
        ).toEqual([]);
        expect(argsOf(runtime, 'COPY').filter((a) => a.includes(`--from=${stage} /app `))).toEqual([]);
      }
    }
    expect(installs.some(({ run }) => /--omit=dev/.test(run))).toBe(true);
  });

  it('copies every workspace’s manifest before each install, so `npm ci` sees the whole lock', () => {
    const workspaces = readdirSync(join(repo, 'packages')).filter((name) =>
      existsSync(join(repo, 'packages', name, 'package.json')),
    );
    for (const stage of stages.filter((s) =>
      argsOf(s, 'RUN').some((run) => /\bnpm (ci|install)\b/.test(run)),
    )) {
      const copies = argsOf(stage, 'COPY').join('\n');
      for (const name of workspaces) expect(copies, stage.name).toContain(`packages/${name}/package.json`);
    }
  });

  it('sends no installed, built or private files to the build', () => {
    const ignored = readFileSync(join(repo, '.dockerignore'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '' && !line.startsWith('#'));
    for (const entry of ['**/node_modules', '**/dist', '.git', 'data', '.env'])
      expect(ignored).toContain(entry);
  });

  it('reads a continued instruction as one, and tells a moving tag from a pinned one', () => {
    // the rules above are only as good as the reading they rest on
    expect(instructionsOf('FROM a:1.2\nRUN x \\\n  # note\n  && y').at(-1)).toEqual({
      keyword: 'RUN',
      args: 'x && y',
      line: 2,
    });
    expect(['node', 'node:latest', 'node:lts-slim', 'node:22'].map(isPinned)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(isPinned(`node@sha256:${'a'.repeat(64)}`)).toBe(true);
    const leaky = stagesOf(
      'FROM n:1.0\nENV NODE_ENV=production DATABASE_URL=postgres://u:p@db/x\nARG NPM_TOKEN',
    );
    expect(secretsIn(leaky[0]!)).toEqual(['DATABASE_URL', 'NPM_TOKEN']);
    expect(secretsIn(stagesOf('FROM n:1.0\nENV UPSTREAM=http://u:pass@host/')[0]!)).toEqual(['UPSTREAM']);
  });
});

/** Whether a Docker daemon answers this machine's `docker` client (none on CI's). */
function dockerDaemon(): { ok: true } | { ok: false; why: string } {
  const info = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], {
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (info.status === 0) return { ok: true };
  const why = (info.error?.message ?? info.stderr ?? '').trim().split('\n').at(-1) ?? 'no answer';
  return { ok: false, why };
}

describe('the image, built and run where a Docker daemon answers', () => {
  const daemon = dockerDaemon();

  it('builds, starts on a throwaway SQLite folder and answers /ready — or says it did not build', async () => {
    if (!daemon.ok) {
      console.warn(`The image was NOT built: no Docker daemon answers here (${daemon.why}).`);
      expect(daemon.why).not.toBe('');
      return;
    }
    const tag = `ninefold-test:${Date.now().toString(36)}`;
    const data = mkdtempSync(join(tmpdir(), 'ninefold-image-'));
    // the image's user (uid 1000) writes into it
    chmodSync(data, 0o777);
    let container = '';
    try {
      const build = spawnSync('docker', ['build', '-t', tag, '.'], {
        cwd: repo,
        encoding: 'utf8',
        maxBuffer: 256 * 2 ** 20,
        timeout: 1_200_000,
      });
      expect(build.status, `docker build:\n${(build.stderr ?? '').slice(-4000)}`).toBe(0);
      container = execFileSync(
        'docker',
        [
          'run',
          '-d',
          '-p',
          '127.0.0.1::3000',
          '-v',
          `${data}:/data`,
          tag,
          'start',
          'examples/expense-claims.md',
          '--host',
          '0.0.0.0',
          '--data',
          '/data',
          '--demo',
        ],
        { encoding: 'utf8' },
      ).trim();
      const port = execFileSync('docker', ['port', container, '3000/tcp'], { encoding: 'utf8' })
        .trim()
        .split(':')
        .at(-1);
      const ready = await waitForReady(`http://127.0.0.1:${port}/ready`, 120_000);
      expect(ready, execFileSync('docker', ['logs', container], { encoding: 'utf8' })).toBe(200);
      expect(existsSync(join(data, 'ninefold.sqlite'))).toBe(true);
      const user = execFileSync('docker', ['exec', container, 'id', '-u'], { encoding: 'utf8' }).trim();
      expect(user).not.toBe('0');
    } finally {
      if (container !== '') spawnSync('docker', ['rm', '-f', container]);
      spawnSync('docker', ['rmi', '-f', tag]);
      rmSync(data, { recursive: true, force: true });
    }
  }, 1_500_000);
});

/** Polls `url` until it answers 200 or `ms` pass; the last status seen (0: no answer). */
async function waitForReady(url: string, ms: number): Promise<number> {
  const until = Date.now() + ms;
  let status = 0;
  while (Date.now() < until) {
    status = await fetch(url).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return status;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return status;
}
