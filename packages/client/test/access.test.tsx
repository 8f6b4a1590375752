import { type SessionUser } from '@ninefold/model';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { createHttp } from '../src/api/http';
import { SESSION_KEY } from '../src/auth/session';
import { decisionsLoaded, loadDecisions, useAuthorizer } from '../src/runtime/access';
import { RuntimeProvider } from '../src/runtime/runtime';
import { modelOf } from './harness';

const model = modelOf('expense-claims.md');
const clerk: SessionUser = {
  id: 'u1',
  email: 'clerk@example.com',
  name: 'Clerk',
  roles: ['employee'],
  locale: null,
  context: { id: 'u1', email: 'clerk@example.com', name: 'Clerk', roles: ['employee'] },
};

function Probe() {
  const access = useAuthorizer();
  return <p>{access.can('create', 'Claim') ? 'may create claims' : 'may not create claims'}</p>;
}

function renderProbe() {
  const client = new QueryClient();
  client.setQueryData(SESSION_KEY, clerk);
  const runtime = { model, http: createHttp({ calls: model.calls }), now: () => new Date() };
  return render(
    <RuntimeProvider runtime={runtime}>
      <QueryClientProvider client={client}>
        <Suspense fallback={<p>waiting for the decisions</p>}>
          <Probe />
        </Suspense>
      </QueryClientProvider>
    </RuntimeProvider>,
  );
}

describe('the engine’s decisions in the client', () => {
  it('are not there before their code has loaded', () => {
    expect(decisionsLoaded()).toBe(false);
  });

  it('are read at once once loaded: a new screen renders them in its first pass, never its fallback', async () => {
    await loadDecisions();
    expect(decisionsLoaded()).toBe(true);
    renderProbe();
    expect(screen.queryByText('waiting for the decisions')).toBeNull();
    expect(screen.getByText('may create claims')).toBeInTheDocument();
  });
});
