"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";

export interface PickableOrganization {
  id: string;
  name: string;
}

/** What the picker shows: the search it answers, the organizations loaded so far, and how. */
export interface OrganizationSearch {
  /** searching: a new query's first page; more: the next page of the same query. */
  phase: "idle" | "searching" | "ready" | "more" | "error";
  query: string;
  items: PickableOrganization[];
  nextCursor: string | null;
  error: ShownError | null;
  /** The page that failed, so "Try again" asks for it again (null: the first page). */
  failedCursor: string | null;
}

/** Long enough to let a typist finish a word, short enough to feel immediate. */
const SEARCH_DELAY_MS = 250;

const IDLE: OrganizationSearch = { phase: "idle", query: "", items: [], nextCursor: null, error: null, failedCursor: null };

/**
 * The organization picker's server search (organizations.pick, D332): debounced as the user
 * types, paged by cursor. Driven from event handlers; only the newest request's answer is kept,
 * so a slow answer to an older query never replaces a newer one.
 */
export function useOrganizationSearch(delayMs = SEARCH_DELAY_MS) {
  const [search, setSearch] = useState<OrganizationSearch>(IDLE);
  const latest = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  /** True when this page is what the picker now shows. */
  const fetchPage = useCallback(async (query: string, cursor: string | null, previous: PickableOrganization[]): Promise<boolean> => {
    const mine = ++latest.current;
    try {
      const page = await trpc.organizations.pick.query({ query: query || undefined, cursor: cursor ?? undefined });
      if (mine !== latest.current) return false;
      setSearch({ phase: "ready", query, items: [...previous, ...page.items], nextCursor: page.nextCursor, error: null, failedCursor: null });
      return true;
    } catch (caught) {
      if (mine === latest.current) setSearch({ phase: "error", query, items: previous, nextCursor: null, error: describeError(caught), failedCursor: cursor });
      return false;
    }
  }, []);

  /** A new query: its first page after the typing pause (at once when `immediate`). */
  const start = useCallback(
    (query: string, { immediate = false } = {}) => {
      clearTimeout(timer.current);
      latest.current++;
      setSearch({ ...IDLE, phase: "searching", query });
      timer.current = setTimeout(() => void fetchPage(query, null, []), immediate ? 0 : delayMs);
    },
    [delayMs, fetchPage],
  );

  /** The next page of the current query; true once it is shown. */
  const more = useCallback(async (): Promise<boolean> => {
    if (search.phase !== "ready" || search.nextCursor === null) return false;
    setSearch({ ...search, phase: "more" });
    return fetchPage(search.query, search.nextCursor, search.items);
  }, [fetchPage, search]);

  const retry = useCallback(() => {
    if (search.phase !== "error") return;
    if (search.failedCursor === null) start(search.query, { immediate: true });
    else {
      setSearch({ ...search, phase: "more", error: null });
      void fetchPage(search.query, search.failedCursor, search.items);
    }
  }, [fetchPage, search, start]);

  /** The picker closed: drop what is pending, so no answer lands in a closed list. */
  const stop = useCallback(() => {
    clearTimeout(timer.current);
    latest.current++;
    setSearch(IDLE);
  }, []);

  return { search, start, more, retry, stop };
}
