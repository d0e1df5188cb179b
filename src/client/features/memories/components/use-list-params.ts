import { useCallback, useRef } from "react";
import { useSearchParams } from "wouter";

/** Reads `?page=` as a page number: anything but a whole number from 1 up is page 1. */
export function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/**
 * A memory list's page and search, kept in the URL (`/?page=2&q=beach`, `/profile/nana?q=sea`) so
 * that Back, reload and a shared link show the same page. Each page change is a history entry;
 * typing in the search box replaces the entry and starts again at page 1 (spec 2).
 */
export function useListParams() {
  const [params, setParams] = useSearchParams();
  const page = parsePage(params.get("page"));
  const search = params.get("q") ?? "";
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

  return { page, search, setPage, setSearch };
}
