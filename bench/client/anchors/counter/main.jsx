// The bundle anchor: the smallest Vite React app there is, a counter (what `npm create vite` gives,
// less its logos). Our client's JS and CSS are compared with this one's, both built in the same run.
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import './counter.css';

function Counter() {
  const [count, setCount] = useState(0);
  return (
    <main>
      <h1>Counter</h1>
      <button type="button" onClick={() => setCount((n) => n + 1)}>
        Count is {count}
      </button>
    </main>
  );
}

createRoot(document.getElementById('root')).render(
  <StrictMode>
    <Counter />
  </StrictMode>,
);
