import { useCallback, useRef } from "react";
import { useSearchParams } from "wouter";

/** Reads `?page=` as a page number: anything but a whole number from 1 up is page 1. */
export function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/**
 * A memory list's page, search and storyteller, kept in the URL (`/?page=2&q=beach`,
 * `/?storyteller=m2`, `/profile/nana?q=sea`) so that Back, reload and a shared link show the same
 * page. Each page change is a history entry; typing in the search box replaces the entry and starts
 * again at page 1 (spec 2); choosing a storyteller starts again at page 1 of every year.
 */
export function useListParams() {
  const [params, setParams] = useSearchParams();
  const page = parsePage(params.get("page"));
  const search = params.get("q") ?? "";
  const storyteller = params.get("storyteller") ?? "";
  // Read at call time, so `setSearch` stays one function (the search box re-reports on a new one).
  const current = useRef(search);
  current.current = search;

  const setPage = useCallback(
    (next: number) =>
      setParams((previous) => {
        const updated = new URLSearchParams(previous);
        if (next > 1) updated.set("page", String(next));
        else updated.delete("page");
        return updated;
      }),
    [setParams],
  );

  const setSearch = useCallback(
    (text: string) => {
      const q = text.trim();
      if (q === current.current.trim()) return;
      setParams(
        (previous) => {
          const updated = new URLSearchParams(previous);
          if (q) updated.set("q", q);
          else updated.delete("q");
          updated.delete("page");
          return updated;
        },
        { replace: true },
      );
    },
    [setParams],
  );

  const setStoryteller = useCallback(
    (memberId: string) =>
      setParams((previous) => {
        const updated = new URLSearchParams(previous);
        if (memberId) updated.set("storyteller", memberId);
        else updated.delete("storyteller");
        // Another storyteller's pages and years are not this one's.
        updated.delete("page");
        updated.delete("year");
        return updated;
      }),
    [setParams],
  );

  return { page, search, storyteller, setPage, setSearch, setStoryteller };
}
