import { useEffect } from 'react';
import { useModel } from '../runtime/runtime';

/** Sets the tab's title to "<page> · <product>". */
export function useDocumentTitle(title: string | null): void {
  const product = useModel().product.name;
  useEffect(() => {
    document.title = title === null || title === '' ? product : `${title} · ${product}`;
  }, [title, product]);
}
