"use client";

import { useState } from "react";

/**
 * Keyset paging with "jump to first/last" (D455). A cursor walk only goes forward, so the last
 * page is the first page of the reversed order, shown reversed; walking back from it reads on in
 * the reversed order. `reversed` tells the caller which order to ask for.
 */
export interface EndsPager {
  cursor: string | undefined;
  reversed: boolean;
  atFirst: boolean;
  first(): void;
  last(): void;
  /** Towards the end of the order. */
  next(nextCursor: string | null): void;
  /** Towards its start. */
  previous(nextCursor: string | null): void;
  canNext(nextCursor: string | null): boolean;
  canPrevious(nextCursor: string | null): boolean;
  canLast(nextCursor: string | null): boolean;
}

export function useEndsPager(): EndsPager {
  const [state, setState] = useState<{ reversed: boolean; stack: (string | undefined)[] }>({ reversed: false, stack: [undefined] });
  const { reversed, stack } = state;
  const push = (cursor: string | null) => cursor && setState((s) => ({ ...s, stack: [...s.stack, cursor] }));
  const pop = () => setState((s) => ({ ...s, stack: s.stack.slice(0, -1) }));
  const canNext = (nextCursor: string | null) => (reversed ? stack.length > 1 : nextCursor !== null);
  const canPrevious = (nextCursor: string | null) => (reversed ? nextCursor !== null : stack.length > 1);
  return {
    cursor: stack[stack.length - 1],
    reversed,
    atFirst: !reversed && stack.length === 1,
    first: () => setState({ reversed: false, stack: [undefined] }),
    last: () => setState({ reversed: true, stack: [undefined] }),
    next: (nextCursor) => (reversed ? pop() : push(nextCursor)),
    previous: (nextCursor) => (reversed ? push(nextCursor) : pop()),
    canNext,
    canPrevious,
    canLast: (nextCursor) => !(reversed && stack.length === 1) && (reversed || nextCursor !== null || stack.length > 1),
  };
}

/** The order `sort` read backwards: `x` ⇄ `-x`. */
export function reverseSort<S extends string>(sort: S): S {
  return (sort.startsWith("-") ? sort.slice(1) : `-${sort}`) as S;
}
