import { compile } from '@ninefold/language';
import { type Model } from '@ninefold/model';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { declaredSections, visibleSections } from '../src/screens/detail/related';
import { type World, renderApp, world } from './harness';

type Json = Record<string, unknown>;

/**
 * Projects with tasks (one ref to the project) and dependencies (two refs to it): Mem may add
 * tasks, Vic only reads them, Adm keeps everything.
 */
const SPEC = `
entities:
  Project:
    display: name
    fields: { name: { type: string, required: true } }
  Task:
    display: title
    fields:
      title: { type: string, required: true }
      project: { type: ref, to: Project, required: true }
      done: { type: boolean, default: false }
  Dependency:
    display: note
    fields:
      note: { type: string, required: true }
      from: { type: ref, to: Project, required: true }
      to: { type: ref, to: Project, required: true }
roles:
  viewer: { Project: { read: true }, Task: { read: true }, Dependency: { read: true } }
  member: { Project: { read: true }, Task: { read: true, create: true }, Dependency: { read: true } }
  admin: { Project: true, Task: true, Dependency: true }
`;

function modelOf(spec: string): Model {
  const result = compile(spec, { file: 'projects.yaml' });
  if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join('\n'));
  return result.model;
}

let w: World;
let apollo: Json;
let gemini: Json;

async function create(resource: string, values: Json): Promise<Json> {
  const created = await w.api('adm', 'POST', `/api/${resource}`, values);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

beforeAll(async () => {
  w = await world(modelOf(SPEC));
  await w.user('adm', ['admin']);
  await w.user('mem', ['member']);
  await w.user('vic', ['viewer']);
  apollo = await create('projects', { name: 'Apollo' });
  gemini = await create('projects', { name: 'Gemini' });
  // twelve of Apollo's tasks, named so that their order by title is known, and one of Gemini's
  for (let i = 1; i <= 12; i++)
    await create('tasks', { title: `Task ${String(i).padStart(2, '0')}`, project: apollo['id'] });
  await create('tasks', { title: 'Gemini’s own task', project: gemini['id'] });
  await create('dependencies', { note: 'Apollo waits for Gemini', from: apollo['id'], to: gemini['id'] });
}, 60_000);

/** Opens a project's page as one of the people, once it shows its name. */
async function open(as: string, project: Json) {
  const rendered = renderApp(w, { as, path: `/projects/${String(project['id'])}` });
  await screen.findByRole('heading', { name: String(project['name']), level: 1 }, { timeout: 10_000 });
  return rendered;
}

const section = (name: string) => within(screen.getByRole('region', { name }));
const titlesIn = (name: string) =>
  within(section(name).getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.querySelector('td')?.textContent);

describe('a record’s related sections', () => {
  it('shows every child relation in declaration order, a child with two refs told apart by its ref', async () => {
    await open('vic', apollo);
    const headings = await waitFor(() => {
      const found = [...document.querySelectorAll('section[data-related] h2')].map((h) => h.textContent);
      expect(found).toContain('Dependencies by to');
      return found;
    });
    expect(headings).toEqual(['Tasks', 'Dependencies by from', 'Dependencies by to']);
  });

  it('lists the children with the child’s columns but not the ref to the parent, ten at a time', async () => {
    const { user } = await open('vic', apollo);
    const tasks = section('Tasks');
    const table = await tasks.findByRole('table', { name: 'Tasks' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(expect.arrayContaining(['Title', 'Done']));
    expect(headers).not.toContain('Project');
    expect(tasks.getByTestId('related-count')).toHaveTextContent('12 tasks');
    // newest first, as the tasks' list is sorted; Gemini's task is not among them
    expect(titlesIn('Tasks')).toHaveLength(10);
    expect(titlesIn('Tasks')[0]).toBe('Task 12');
    await user.click(tasks.getByRole('button', { name: 'Show more tasks (10 of 12 shown)' }));
    await waitFor(() => expect(titlesIn('Tasks')).toHaveLength(12));
    expect(titlesIn('Tasks')).not.toContain('Gemini’s own task');
    // each row leads to the child's page
    expect(within(table).getByRole('link', { name: 'Task 01' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^\/tasks\/[^/]+$/),
    );
  });

  it('sorts a section by its own columns, on the server', async () => {
    const { user } = await open('vic', apollo);
    const tasks = section('Tasks');
    await tasks.findByRole('table', { name: 'Tasks' });
    await user.click(tasks.getByRole('button', { name: 'Title' }));
    await waitFor(() => expect(titlesIn('Tasks')[0]).toBe('Task 01'));
    expect(tasks.getByRole('columnheader', { name: 'Title' })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(tasks.getByRole('button', { name: 'Title' }));
    await waitFor(() => expect(titlesIn('Tasks')[0]).toBe('Task 12'));
  });

  it('says so when a relation has no records', async () => {
    await open('vic', gemini);
    expect(await section('Dependencies by from').findByTestId('related-empty')).toHaveTextContent(
      'No dependencies yet',
    );
    expect(
      await section('Dependencies by to').findByRole('link', { name: 'Apollo waits for Gemini' }),
    ).toBeVisible();
  });

  it('offers Add only to a role that may create the child', async () => {
    const { unmount } = await open('vic', apollo);
    await section('Tasks').findByRole('table', { name: 'Tasks' });
    expect(section('Tasks').queryByRole('link', { name: 'Add task' })).toBeNull();
    expect(section('Tasks').getByRole('link', { name: 'See all tasks' })).toBeVisible();
    unmount();

    await open('mem', apollo);
    const add = await section('Tasks').findByRole('link', { name: 'Add task' });
    expect(add).toHaveAttribute('href', `/tasks/new?project=${String(apollo['id'])}`);
    // nobody but the admin may create dependencies
    expect(section('Dependencies by from').queryByRole('link', { name: /Add/ })).toBeNull();
  });

  it('Add opens the child’s form with the parent set, and comes back to the parent with the new child', async () => {
    const { user, history } = await open('mem', apollo);
    await user.click(await section('Tasks').findByRole('link', { name: 'Add task' }));
    await screen.findByRole('heading', { name: 'New task', level: 1 }, { timeout: 10_000 });
    await waitFor(() => expect(screen.getByRole('combobox', { name: /^Project/ })).toHaveValue('Apollo'));
    await user.type(screen.getByRole('textbox', { name: /^Title/ }), 'Task 13');
    await user.click(screen.getByRole('button', { name: 'Create task' }));
    await waitFor(() => expect(history.location.pathname).toBe(`/projects/${String(apollo['id'])}`));
    await waitFor(() => expect(titlesIn('Tasks')[0]).toBe('Task 13'));
    expect(section('Tasks').getByTestId('related-count')).toHaveTextContent('13 tasks');
    const saved = await w.api('adm', 'GET', `/api/tasks?title[eq]=Task%2013`);
    expect((saved.body['data'] as Json[])[0]).toMatchObject({ project: apollo['id'] });
  });

  it('See all opens the child’s list filtered by the parent, a deep link with a way back', async () => {
    const { user, history } = await open('vic', gemini);
    const seeAll = await section('Tasks').findByRole('link', { name: 'See all tasks' });
    expect(seeAll).toHaveAttribute('href', `/tasks?project%5Beq%5D=${String(gemini['id'])}`);
    await user.click(seeAll);
    await screen.findByRole('heading', { name: 'Tasks', level: 1 }, { timeout: 10_000 });
    await waitFor(() => expect(screen.getByTestId('list-count')).toHaveTextContent('1 task'));
    expect(screen.getByRole('link', { name: 'Gemini’s own task' })).toBeVisible();
    // the same address opened afresh (a reload) shows the same list and the way back
    history.push(`/tasks?project%5Beq%5D=${String(gemini['id'])}`);
    const back = await within(screen.getByRole('navigation', { name: 'Parent' })).findByRole('link', {
      name: 'Gemini',
    });
    await user.click(back);
    await waitFor(() => expect(history.location.pathname).toBe(`/projects/${String(gemini['id'])}`));
  });

  it('paints the record first, then asks for each section once, all at once', async () => {
    const asked: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    renderApp(w, {
      as: 'vic',
      path: `/projects/${String(apollo['id'])}`,
      network: (fetch) => async (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
        if (/^\/api\/(tasks|dependencies)$/.test(url.pathname)) {
          asked.push(`${url.pathname}?${[...url.searchParams.keys()].filter((k) => k.includes('[')).join()}`);
          await held; // the sections' rows are slow: the record must not wait for them
        }
        return fetch(input, init);
      },
    });
    await screen.findByRole('heading', { name: 'Apollo', level: 1 }, { timeout: 10_000 });
    expect(section('Tasks').getByLabelText('Loading tasks')).toHaveAttribute('aria-busy', 'true');
    await waitFor(() => expect(asked).toHaveLength(3));
    expect(asked.sort()).toEqual([
      '/api/dependencies?from[eq]',
      '/api/dependencies?to[eq]',
      '/api/tasks?project[eq]',
    ]);
    release();
    await waitFor(() => expect(titlesIn('Tasks')).toHaveLength(10));
    // ten rows later, still one request per section: no row asked for anything of its own
    expect(asked).toHaveLength(3);
  });

  it('a reload of the filtered list keeps the parent', async () => {
    renderApp(w, { as: 'vic', path: `/tasks?project%5Beq%5D=${String(apollo['id'])}` });
    // Apollo's twelve tasks, and the one added from its page if that test ran first
    await waitFor(() => expect(screen.getByTestId('list-count')).toHaveTextContent(/^1[23] tasks$/));
    expect(
      await within(screen.getByRole('navigation', { name: 'Parent' })).findByRole('link', { name: 'Apollo' }),
    ).toHaveAttribute('href', `/projects/${String(apollo['id'])}`);
  });
});

describe('which sections a detail screen has', () => {
  const withScreen = (related: string) =>
    modelOf(`${SPEC}screens:\n  project: { kind: detail, entity: Project${related} }\n`);
  const project = (model: Model) => model.screens.find((s) => s.id === 'project')!;

  it('follows `related:` in its order, `[]` for none, and every single ref by default', () => {
    const sections = (related: string) => {
      const model = withScreen(related);
      return declaredSections(model, project(model));
    };
    expect(sections(', related: [Dependency.to, Task.project]')).toEqual([
      { entity: 'Dependency', via: 'to' },
      { entity: 'Task', via: 'project' },
    ]);
    expect(sections(', related: []')).toEqual([]);
    expect(sections('')).toEqual([
      { entity: 'Task', via: 'project' },
      { entity: 'Dependency', via: 'from' },
      { entity: 'Dependency', via: 'to' },
    ]);
  });

  it('leaves out what the viewer may not read or filter on', () => {
    const model = modelOf(
      SPEC.replace(
        'viewer: { Project: { read: true }, Task: { read: true }, Dependency: { read: true } }',
        'viewer: { Project: { read: true }, Task: { read: true, fields: { read: [title] } } }',
      ),
    );
    const screenOf = model.screens.find((s) => s.entity === 'Project' && s.kind === 'detail')!;
    const viewer = { id: 'u1', roles: ['viewer'] } as never;
    // Dependency is not readable; Task's `project` is not among the fields the viewer may read
    expect(visibleSections(model, screenOf, viewer, () => new Set(['title']))).toEqual([]);
    expect(visibleSections(model, screenOf, viewer, () => null).map((s) => s.heading)).toEqual(['Tasks']);
  });
});
