import { useEffect, useState, type RefObject } from 'react';

/**
 * True once the element has scrolled up under the page's sticky header (so the screen should
 * keep what it shows in view another way); false while any of it is below the header.
 */
export function usePinned(target: RefObject<HTMLElement | null>, active: boolean): boolean {
  const [pinned, setPinned] = useState(false);
  useEffect(() => {
    const el = target.current;
    if (!active || !el || typeof IntersectionObserver === 'undefined') return undefined;
    // The header's bottom edge is the top of what the reader sees.
    const header = el.closest('main')?.querySelector('.page-header');
    const top = Math.round(header?.getBoundingClientRect().bottom ?? 0);
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (entry) setPinned(!entry.isIntersecting && entry.boundingClientRect.top < top);
      },
      { rootMargin: `-${top}px 0px 0px 0px` },
    );
    observer.observe(el);
    return () => {
      observer.disconnect();
    };
  }, [target, active]);
  // Without a round there is nothing to keep in view.
  return active && pinned;
}
