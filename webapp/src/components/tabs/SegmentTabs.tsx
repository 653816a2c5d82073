import { useRef, type KeyboardEvent } from 'react';
import './SegmentTabs.css';

export interface Segment<T extends string | number> {
  value: T;
  label: string;
}

interface SegmentTabsProps<T extends string | number> {
  label: string;
  segments: readonly Segment<T>[];
  value: T;
  onChange: (value: T) => void;
  /** `tabs`: the record tabs (underline); `chips`: the day filter. */
  variant?: 'tabs' | 'chips';
}

/**
 * A row of exclusive choices. Arrow keys move between them (roving tabindex), as in a
 * WAI-ARIA tab list; the chips variant is a radio group.
 */
export function SegmentTabs<T extends string | number>({ label, segments, value, onChange, variant = 'tabs' }: SegmentTabsProps<T>) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const tabs = variant === 'tabs';
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const index = segments.findIndex((s) => s.value === value);
    let next = index;
    if (event.key === 'ArrowRight') next = (index + 1) % segments.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + segments.length) % segments.length;
    else return;
    event.preventDefault();
    const segment = segments[next];
    if (!segment) return;
    onChange(segment.value);
    refs.current[next]?.focus();
  };
  return (
    <div
      className={`segments segments--${variant}`}
      role={tabs ? 'tablist' : 'radiogroup'}
      aria-label={label}
      onKeyDown={onKeyDown}
    >
      {segments.map((segment, i) => {
        const selected = segment.value === value;
        return (
          <button
            key={String(segment.value)}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role={tabs ? 'tab' : 'radio'}
            aria-selected={tabs ? selected : undefined}
            aria-checked={tabs ? undefined : selected}
            tabIndex={selected ? 0 : -1}
            className={selected ? 'segments__item segments__item--selected' : 'segments__item'}
            onClick={() => {
              onChange(segment.value);
            }}
          >
            {segment.label}
          </button>
        );
      })}
    </div>
  );
}
