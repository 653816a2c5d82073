import { useRef, type KeyboardEvent, type MouseEvent, type PointerEvent } from 'react';

const HOLD_MS = 500;
const MOVE_TOLERANCE = 10;

/**
 * Long press on touch (500 ms without moving), the context menu (right click, or the long
 * press Android reports as one) and the keyboard's menu key or Shift+F10 all call
 * `onLongPress` once; a press that turned into a long press does not also click.
 */
export function useLongPress(onLongPress: () => void) {
  const timer = useRef<number | null>(null);
  const start = useRef<{ x: number; y: number } | null>(null);
  const touching = useRef(false);
  const fired = useRef(false);

  const clear = (): void => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = null;
  };

  return {
    onPointerDown(event: PointerEvent) {
      touching.current = event.pointerType !== 'mouse';
      if (!touching.current) return;
      fired.current = false;
      start.current = { x: event.clientX, y: event.clientY };
      clear();
      timer.current = window.setTimeout(() => {
        fired.current = true;
        onLongPress();
      }, HOLD_MS);
    },
    onPointerMove(event: PointerEvent) {
      const s = start.current;
      if (s && Math.hypot(event.clientX - s.x, event.clientY - s.y) > MOVE_TOLERANCE) clear();
    },
    onPointerUp: clear,
    onPointerCancel: clear,
    onContextMenu(event: MouseEvent) {
      event.preventDefault();
      if (fired.current) return; // the touch timer already opened the menu
      clear();
      // After a touch the finger's release must not click; a mouse's right click is over.
      fired.current = touching.current;
      onLongPress();
    },
    onKeyDown(event: KeyboardEvent) {
      if (event.key === 'ContextMenu' || (event.key === 'F10' && event.shiftKey)) {
        event.preventDefault();
        onLongPress();
      }
    },
    onClickCapture(event: MouseEvent) {
      if (fired.current) {
        event.preventDefault();
        event.stopPropagation();
        fired.current = false;
      }
    },
  };
}
