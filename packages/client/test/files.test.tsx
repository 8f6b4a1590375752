/**
 * Files in the app (decision 0055), against the real server in-process: a receipt chosen in the
 * claim form is uploaded at once and saved with the claim; the browser refuses a file too large or
 * of a type the field does not take without sending it; an upload can be cancelled, a file removed;
 * the server's own refusal shows at the field; the claim's page shows the picture and the download
 * link; a book's gallery keeps the order it is given; offline, the control says files need the network;
 * the drop zone opens the picker from the keyboard, and a phone is offered its camera.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import userEvent from '@testing-library/user-event';
import type { UploadTransport } from '../src/api/upload';
import { type World, renderApp, world } from './harness';

/** What a field says while one of its files is still being sent (`fields.stillUploading`). */
const STILL_UPLOADING = 'Wait for the file to finish uploading, or cancel it.';

type Json = Record<string, unknown>;

/** A PNG of one pixel: what the server sniffs as `image/png`. */
const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);
const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

const png = (name = 'receipt.png') => new File([PNG], name, { type: 'image/png' });

/** A network that counts the uploads sent, and can hold them until they are aborted. */
function countedNetwork(options: { hold?: boolean } = {}) {
  const uploads: string[] = [];
  return {
    uploads,
    network:
      (fetch: typeof globalThis.fetch): typeof globalThis.fetch =>
      async (input, init) => {
        if (init?.method === 'POST' && new URL(String(input), 'http://localhost').pathname === '/api/files') {
          uploads.push(String(input));
          if (options.hold === true)
            return new Promise<Response>((_, reject) => {
              const signal = init.signal;
              signal?.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
            });
        }
        return fetch(input, init);
      },
  };
}

async function claimsWorld(): Promise<World> {
  const w = await world('expense-claims.md');
  await w.user('ann', ['employee']);
  return w;
}

/** The claim form, open as Ann, with a title and an amount above the receipt threshold. */
async function newClaim(w: World, network?: ReturnType<typeof countedNetwork>['network']) {
  const rendered = renderApp(w, {
    as: 'ann',
    path: '/claims/new',
    ...(network === undefined ? {} : { network }),
  });
  await rendered.user.type(await screen.findByRole('textbox', { name: /^Title/ }), 'Hotel in Lyon');
  await rendered.user.type(screen.getByRole('textbox', { name: /^Amount/ }), '120');
  return rendered;
}

/** The hidden input behind the receipt's drop zone. */
const receiptInput = () =>
  screen.getByLabelText('Receipt: choose a file', { selector: 'input' }) as HTMLInputElement;
const receiptZone = () => screen.getByRole('button', { name: 'Receipt: choose a file or drop it here' });
const receiptField = () => screen.getByRole('group', { name: /^Receipt/ });
/** What describes the receipt's drop zone: the field's help and its error, where a refusal shows. */
const zoneDescription = () =>
  (receiptZone().getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');

async function landedOnClaim(history: ReturnType<typeof renderApp>['history']): Promise<string> {
  await waitFor(() => expect(history.location.pathname).toMatch(/^\/claims\/(?!new$)[^/]+$/));
  return history.location.pathname.split('/')[2] ?? '';
}

afterEach(() => {
  delete (navigator as { onLine?: boolean }).onLine;
});

describe('a file field in a form', { timeout: 90_000 }, () => {
  it('uploads a chosen receipt at once, previews it, and saves it with the claim; its page shows it', async () => {
    const w = await claimsWorld();
    const { uploads, network } = countedNetwork();
    const { user, history } = await newClaim(w, network);

    // above the threshold, without a receipt: the rule says so at the field
    await user.click(screen.getByRole('button', { name: 'Create claim' }));
    expect(await within(receiptField()).findByText(/A receipt is required/)).toBeInTheDocument();

    await user.upload(receiptInput(), png());
    const preview = await within(receiptField()).findByRole('img', { name: 'receipt.png' });
    expect(uploads).toHaveLength(1);
    expect(uploads[0]).toMatch(/\/api\/files\?entity=Claim&field=receipt$/);
    expect(preview.getAttribute('src')).toMatch(/^\/api\/files\/[^/?]+\?w=320$/);
    expect(within(receiptField()).getByRole('button', { name: 'Replace receipt.png' })).toBeEnabled();
    expect(within(receiptField()).queryByText(/A receipt is required/)).toBeNull();
    await waitFor(() => expect(screen.getByText('receipt.png uploaded.')).toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Create claim' }));
    const id = await landedOnClaim(history);
    const { body } = await w.api('ann', 'GET', `/api/claims/${id}`);
    const receipt = body['receipt'] as Json;
    expect(receipt).toMatchObject({ name: 'receipt.png', type: 'image/png', size: PNG.length });

    // the claim's page: the picture at reading width, linked to the original, and its download link
    await waitFor(() =>
      expect(screen.getByRole('img', { name: 'receipt.png' })).toHaveAttribute(
        'src',
        `/api/files/${String(receipt['id'])}?w=1280`,
      ),
    );
    const shown = screen.getByRole('img', { name: 'receipt.png' });
    expect(shown.closest('a')).toHaveAttribute('href', `/api/files/${String(receipt['id'])}`);
    const download = screen.getByRole('link', { name: `Download receipt.png (${PNG.length} bytes)` });
    expect(download).toHaveAttribute('href', `/api/files/${String(receipt['id'])}?download=1`);
    const bytes = await w.server.app.inject({
      method: 'GET',
      url: `/api/files/${String(receipt['id'])}?download=1`,
      headers: { cookie: w.users['ann']?.cookie ?? '' },
    });
    expect(bytes.statusCode).toBe(200);
    expect(new Uint8Array(bytes.rawPayload)).toEqual(PNG);
  });

  it('refuses a file too large or of a type the field does not take, in the browser, without a request', async () => {
    const w = await claimsWorld();
    const { uploads, network } = countedNetwork();
    await newClaim(w, network);

    const large = new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'scan.pdf', { type: 'application/pdf' });
    fireEvent.change(receiptInput(), { target: { files: [large] } });
    await waitFor(() => expect(zoneDescription()).toContain('The file is larger than 10,485,760 bytes.'));

    // dropped on the zone, where the picker's `accept` does not apply
    const zip = new File(['PK'], 'receipts.zip', { type: 'application/zip' });
    fireEvent.drop(receiptZone(), { dataTransfer: { files: [zip], types: ['Files'] } });
    await waitFor(() =>
      expect(zoneDescription()).toContain(
        'This file is application/zip; Receipt accepts application/pdf, image/*.',
      ),
    );
    expect(zoneDescription()).not.toContain('larger');
    expect(uploads).toEqual([]);
  });

  it('shows the server’s refusal at the field: the content decides the type, not the name', async () => {
    const w = await claimsWorld();
    const { user } = await newClaim(w);
    await user.upload(receiptInput(), new File(['just some text'], 'receipt.png', { type: 'image/png' }));
    await waitFor(() =>
      expect(zoneDescription()).toMatch(
        /This file is text\/plain; Receipt accepts application\/pdf, image\/\*\./,
      ),
    );
    expect(within(receiptField()).queryByRole('img')).toBeNull();
  });

  it('cancels an upload under way, and the form waits for one before it saves', async () => {
    const w = await claimsWorld();
    const { uploads, network } = countedNetwork({ hold: true });
    const { user, history } = await newClaim(w, network);
    await user.upload(receiptInput(), png());
    expect(await screen.findByRole('progressbar', { name: 'Uploading receipt.png' })).toBeInTheDocument();
    expect(uploads).toHaveLength(1);
    expect(screen.getByText('Uploading receipt.png.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create claim' }));
    expect(await within(receiptField()).findByText(STILL_UPLOADING)).toBeInTheDocument();
    expect(history.location.pathname).toBe('/claims/new');

    await user.click(screen.getByRole('button', { name: 'Cancel the upload of receipt.png' }));
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
    expect(screen.getByText('The upload of receipt.png was cancelled.')).toBeInTheDocument();
    expect(within(receiptField()).queryByRole('img')).toBeNull();
    expect(receiptZone()).toBeInTheDocument();
    expect(within(receiptField()).queryByText(STILL_UPLOADING)).toBeNull();
  });

  it('shows the share of the request sent, which holds the form around the file too', async () => {
    const w = await claimsWorld();
    // a browser's progress counts the request's bytes: the file's and the multipart form's around
    // them, more than the file's own size for a small file; the transport holds the rest back
    const told: [number, number][] = [];
    const upload: UploadTransport = (request) =>
      new Promise((_, reject) => {
        for (const [sent, total] of [
          [100, 1000],
          [300, 1000],
        ] as const) {
          request.onProgress?.(sent, total);
          told.push([sent, total]);
        }
        request.signal?.addEventListener('abort', () => reject(new DOMException('cancelled', 'AbortError')));
      });
    renderApp(w, { as: 'ann', path: '/claims/new', upload });
    await screen.findByRole('textbox', { name: /^Title/ });
    await userEvent.upload(receiptInput(), png());
    const bar = await screen.findByRole('progressbar', { name: 'Uploading receipt.png' });
    expect(told).toHaveLength(2);
    // 300 of the request's 1,000 bytes: 30 %, whatever the file's 70 bytes
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '30'));
  });

  it('removes a saved receipt, and the change saves the claim without it', async () => {
    const w = await claimsWorld();
    const file = await w.upload('ann', { name: 'taxi.pdf', type: 'application/pdf', bytes: PDF });
    const created = await w.api('ann', 'POST', '/api/claims', {
      title: 'Taxi to the airport',
      amount: '18.00',
      spentOn: '2026-02-01',
      receipt: file.id,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = String(created.body['id']);

    // its page previews the PDF and offers it to download
    const page = renderApp(w, { as: 'ann', path: `/claims/${id}` });
    expect(await screen.findByRole('link', { name: /^Download taxi\.pdf/ })).toBeInTheDocument();
    expect(document.querySelector('iframe[title="taxi.pdf"]')).toHaveAttribute(
      'src',
      `/api/files/${file.id}`,
    );
    page.unmount();

    const { user, history } = renderApp(w, { as: 'ann', path: `/claims/${id}/edit` });
    await user.click(await screen.findByRole('button', { name: 'Remove taxi.pdf' }));
    expect(receiptZone()).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^Save/ }));
    await waitFor(() => expect(history.location.pathname).toBe(`/claims/${id}`));
    const { body } = await w.api('ann', 'GET', `/api/claims/${id}`);
    expect(body['receipt']).toBeNull();
  });

  it('says files need the network while offline, and takes none', async () => {
    const w = await claimsWorld();
    let offline = false;
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => !offline });
    await newClaim(w);
    act(() => {
      offline = true;
      window.dispatchEvent(new Event('offline'));
    });
    expect(await screen.findByText(/^Files need the network/)).toBeInTheDocument();
    expect(receiptZone()).toHaveAttribute('aria-disabled', 'true');
    expect(receiptInput()).toBeDisabled();
    // back online, for the queries of the tests after this one
    act(() => {
      offline = false;
      window.dispatchEvent(new Event('online'));
    });
    expect(screen.queryByText(/^Files need the network/)).toBeNull();
  });
});

describe('the drop zone', { timeout: 90_000 }, () => {
  it('opens the picker from the keyboard, and on a phone offers the camera too', async () => {
    const w = await claimsWorld();
    const coarse = window.matchMedia;
    window.matchMedia = (query: string) =>
      ({ ...coarse(query), matches: query === '(pointer: coarse)' }) as MediaQueryList;
    try {
      const { user } = await newClaim(w);
      const opened: string[] = [];
      const click = vi.spyOn(HTMLInputElement.prototype, 'click').mockImplementation(function (
        this: HTMLInputElement,
      ) {
        opened.push(this.getAttribute('aria-label') ?? '');
      });
      receiptZone().focus();
      await user.keyboard('{Enter}');
      await user.keyboard(' ');
      expect(opened).toEqual(['Receipt: choose a file', 'Receipt: choose a file']);
      expect(receiptInput()).toHaveAttribute('accept', 'application/pdf,image/*');
      expect(receiptInput()).not.toHaveAttribute('capture');

      // the camera: its own input, so that the picker still offers the phone's files
      await user.click(screen.getByRole('button', { name: 'Receipt: take a photo' }));
      expect(opened.at(-1)).toBe('Receipt: take a photo');
      const camera = screen.getByLabelText('Receipt: take a photo', { selector: 'input' });
      expect(camera).toHaveAttribute('capture', 'environment');
      expect(camera).toHaveAttribute('accept', 'image/*');
      click.mockRestore();
    } finally {
      window.matchMedia = coarse;
    }
  });
});

describe('a gallery of images', { timeout: 90_000 }, () => {
  it('adds several photos at once, keeps the order it is given, and shows them in the list', async () => {
    const w = await world('library-loans.md');
    await w.user('lia', ['librarian']);
    const { user, history } = renderApp(w, { as: 'lia', path: '/books/new' });
    await user.type(await screen.findByRole('textbox', { name: /^Title/ }), 'Les Misérables');
    await user.type(screen.getByRole('textbox', { name: /^Author/ }), 'Victor Hugo');
    await user.type(screen.getByRole('textbox', { name: /^ISBN/ }), '9780140444308');
    const input = screen.getByLabelText('Photos: choose files', { selector: 'input' });
    expect(input).toHaveAttribute('multiple');
    await user.upload(input, [png('cover.png'), png('spine.png')]);
    const photos = () => within(screen.getByRole('list', { name: 'Photos: files' }));
    await waitFor(() => expect(photos().getAllByRole('img')).toHaveLength(2));

    const order = () =>
      photos()
        .getAllByRole('img')
        .map((img) => img.getAttribute('alt'));
    const first = order()[0]!;
    const second = order()[1]!;
    await user.click(photos().getByRole('button', { name: `Move ${second} earlier` }));
    expect(order()).toEqual([second, first]);
    await user.click(photos().getByRole('button', { name: `Remove ${first}` }));
    expect(order()).toEqual([second]);
    await user.upload(screen.getByLabelText('Photos: choose files', { selector: 'input' }), png('back.png'));
    await waitFor(() => expect(order()).toEqual([second, 'back.png']));

    await user.click(screen.getByRole('button', { name: /^Create/ }));
    await waitFor(() => expect(history.location.pathname).not.toBe('/books/new'));
    const { body } = await w.api('lia', 'GET', '/api/books?limit=10');
    const book = (body['data'] as Json[])[0]!;
    expect((book['photos'] as Json[]).map((p) => p['name'])).toEqual([second, 'back.png']);

    // the catalogue shows each photo as a small thumbnail, named by its file
    history.push('/books');
    const row = (await screen.findByRole('link', { name: 'Les Misérables' })).closest('tr')!;
    const thumbs = within(row).getAllByRole('img');
    expect(thumbs.map((t) => t.getAttribute('alt'))).toEqual([second, 'back.png']);
    expect(thumbs[0]).toHaveAttribute('loading', 'lazy');
    expect(thumbs[0]?.getAttribute('src')).toMatch(/\?w=64$/);
  });
});
