/**
 * The navigation's icons: their paths load in their own chunk (`nav-icons.ts`), asked for as the
 * shell's code starts; until then each icon's place is kept empty at its size, so nothing moves.
 */
import { useEffect, useState } from 'react';
import { onDemand } from '../runtime/lazy';
import type { Icon } from './nav-icons';

interface Icons {
  readonly named: Readonly<Record<string, Icon>>;
  readonly fallback: Icon;
}

const icons = onDemand<Icons>(() =>
  import('./nav-icons').then((module) => ({ named: module.NAV_ICONS, fallback: module.FALLBACK_ICON })),
);
// offline without the chunk cached: the navigation keeps its labels, without icons
const loading: Promise<Icons | null> = icons.load().catch(() => null);

export function NavIcon({ name }: { name: string | null }) {
  const [loaded, setLoaded] = useState(icons.current);
  useEffect(() => {
    if (loaded === null) void loading.then(setLoaded);
  }, [loaded]);
  if (loaded === null) return <span className="nf-nav-icon" aria-hidden />;
  const { named, fallback } = loaded;
  const Icon = (name !== null && Object.hasOwn(named, name) ? named[name] : undefined) ?? fallback;
  return <Icon size={18} stroke={1.6} aria-hidden />;
}
