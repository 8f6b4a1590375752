// The list anchor: a hand-written table over the same API page as our list screen, virtualised with
// @tanstack/react-virtual, no UI kit. `?api=<the URL our list screen asked for>&cols=a,b,c`.
import { useVirtualizer } from '@tanstack/react-virtual';
import { StrictMode, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import './list.css';

const params = new URLSearchParams(location.search);
const API = params.get('api');
const COLUMNS = (params.get('cols') ?? '').split(',').filter((c) => c !== '');
const ROW_HEIGHT = 36;

function Table() {
  const [rows, setRows] = useState(null);
  const [error, setError] = useState(null);
  const scroller = useRef(null);
  useEffect(() => {
    const controller = new AbortController();
    fetch(API, { headers: { accept: 'application/json' }, signal: controller.signal })
      .then((response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return response.json();
      })
      .then(
        (page) => setRows(page.data),
        (e) => controller.signal.aborted || setError(e),
      );
    return () => controller.abort();
  }, []);
  const virtualizer = useVirtualizer({
    count: rows?.length ?? 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  if (error !== null) return <p role="alert">{error.message}</p>;
  if (rows === null) return <p>Loading…</p>;
  return (
    <div ref={scroller} className="scroller" role="table" aria-rowcount={rows.length + 1}>
      <div role="row" className="row head">
        {COLUMNS.map((c) => (
          <div role="columnheader" key={c}>
            {c}
          </div>
        ))}
      </div>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          return (
            <div
              role="row"
              key={row.id}
              className="row"
              style={{
                position: 'absolute',
                top: 0,
                left: 0,
                right: 0,
                transform: `translateY(${item.start}px)`,
              }}
            >
              {COLUMNS.map((c) => (
                <div role="cell" key={c}>
                  {row[c] == null ? '' : String(row[c])}
                </div>
              ))}
            </div>
          );
        })}
      </div>
    </div>
  );
}

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <main>
      <h1>Claims</h1>
      <Table />
    </main>
  </StrictMode>,
);
