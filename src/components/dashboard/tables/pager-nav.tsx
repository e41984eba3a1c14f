"use client";

import { Button } from "@/components/ui/button";
import type { EndsPager } from "./ends-pager";

/** First · Previous · Next · Last for an EndsPager. */
export function PagerNav({
  pager,
  nextCursor,
  label,
  names = ["First", "Previous", "Next", "Last"],
}: {
  pager: EndsPager;
  nextCursor: string | null;
  label: string;
  names?: [string, string, string, string];
}) {
  return (
    <nav aria-label={label} className="flex flex-wrap justify-end gap-2">
      <Button variant="outline" size="sm" disabled={pager.atFirst} onClick={pager.first}>
        {names[0]}
      </Button>
      <Button variant="outline" size="sm" disabled={!pager.canPrevious(nextCursor)} onClick={() => pager.previous(nextCursor)}>
        {names[1]}
      </Button>
      <Button variant="outline" size="sm" disabled={!pager.canNext(nextCursor)} onClick={() => pager.next(nextCursor)}>
        {names[2]}
      </Button>
      <Button variant="outline" size="sm" disabled={!pager.canLast(nextCursor)} onClick={pager.last}>
        {names[3]}
      </Button>
    </nav>
  );
}
