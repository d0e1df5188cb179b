import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useSearchParams } from "wouter";
import { MESSAGES, yearLabel } from "../../../../shared/messages";
import { Button } from "../../../components/ui/button";
import { memoryYearsQueryOptions } from "../api/get-memories";
import type { YearsOf } from "../api/memory-keys";
import { parsePage } from "./use-list-params";

/**
 * The years a memory list spans, newest first: choosing one opens the page holding that year's
 * newest memory. The chosen year lives in the URL beside the page (`/?year=2019&page=12`), so
 * Back, reload and a shared link keep it; a link naming only the year opens its page. Hidden when
 * every memory falls in one year. The list is a journal's (`list`), or a profile's; `total` is the
 * list's total (undefined while unknown), so the years are read again when memories come or go.
 * After a choice, the list's first story of that year (`data-memory-year`) is scrolled into view
 * once the list shows it. On a phone the years are one row that scrolls sideways.
 */
export function YearNavigator({ list, total }: { list: YearsOf; total: number | undefined }) {
  const [params, setParams] = useSearchParams();
  const { data } = useQuery(memoryYearsQueryOptions(list, total));
  const years = data?.years ?? [];
  const chosen = params.get("year");
  const page = parsePage(params.get("page"));
  const landing = chosen && !params.has("page") ? years.find((y) => y.year === chosen) : undefined;
  const landingPage = landing?.page ?? 1;

  useEffect(() => {
    if (landingPage <= 1) return;
    setParams(
      (previous) => {
        const updated = new URLSearchParams(previous);
        updated.set("page", String(landingPage));
        return updated;
      },
      { replace: true },
    );
  }, [landingPage, setParams]);

  // The year just chosen, until its first story is on screen to scroll to.
  const [scrollTo, setScrollTo] = useState<string | null>(null);
  useEffect(() => {
    if (scrollTo === null) return;
    const reveal = () => {
      const first = document.querySelector(`[data-memory-year="${CSS.escape(scrollTo)}"]`);
      if (!first) return false;
      first.scrollIntoView?.({ block: "start" });
      setScrollTo(null);
      return true;
    };
    if (reveal()) return;
    // The year's page is still loading: scroll when its stories arrive.
    const observer = new MutationObserver(() => {
      if (reveal()) observer.disconnect();
    });
    observer.observe(document.body, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [scrollTo]);

  if (years.length <= 1) return null;
  const choose = (year: string, yearPage: number) => {
    setScrollTo(year);
    setParams((previous) => {
      const updated = new URLSearchParams(previous);
      updated.set("year", year);
      if (yearPage > 1) updated.set("page", String(yearPage));
      else updated.delete("page");
      return updated;
    });
  };
  return (
    <nav
      aria-label={MESSAGES.yearNavigator}
      className="-mx-1 flex flex-nowrap gap-1 overflow-x-auto px-1 pb-1 sm:flex-wrap sm:overflow-visible"
    >
      {years.map(({ year, count, page: yearPage }, index) => {
        // The chosen year is current while the list shows one of its pages.
        const lastPage = years[index + 1]?.page ?? Number.POSITIVE_INFINITY;
        const current = year === chosen && page >= yearPage && page <= lastPage;
        return (
          <Button
            key={year}
            size="sm"
            className="shrink-0"
            variant={current ? "primary" : "outline"}
            aria-label={yearLabel(year, count)}
            aria-current={current ? "true" : undefined}
            onClick={() => choose(year, yearPage)}
          >
            {year}
          </Button>
        );
      })}
    </nav>
  );
}
