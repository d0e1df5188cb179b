import { PAGE_SIZE } from "../../../../shared/constants";
import { formatMessage } from "../../../../shared/i18n/format";
import { MESSAGES } from "../../../../shared/messages";
import { Button } from "../../../components/ui/button";

/** The page numbers to show: first, last and two either side of the current one. */
export function visiblePages(current: number, pageCount: number): (number | "gap")[] {
  const pages: (number | "gap")[] = [];
  for (let page = 1; page <= pageCount; page++) {
    if (page === 1 || page === pageCount || Math.abs(page - current) <= 2) pages.push(page);
    else if (pages[pages.length - 1] !== "gap") pages.push("gap");
  }
  return pages;
}

/** Numbered page buttons (spec 2: 15 per page); nothing when everything fits on one page. */
export function PageButtons({
  total,
  page,
  onPage,
}: {
  total: number;
  page: number;
  onPage: (page: number) => void;
}) {
  const pageCount = Math.ceil(total / PAGE_SIZE);
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={MESSAGES.pages} className="flex flex-wrap justify-center gap-1">
      {visiblePages(page, pageCount).map((item, index) =>
        item === "gap" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity of their own
          <span key={`gap-${index}`} className="px-2 py-2 text-slate-700" aria-hidden="true">
            …
          </span>
        ) : (
          <Button
            key={item}
            size="tap"
            variant={item === page ? "primary" : "outline"}
            aria-label={formatMessage(MESSAGES.pageNumber, { page: item })}
            aria-current={item === page ? "page" : undefined}
            onClick={() => onPage(item)}
          >
            {item}
          </Button>
        ),
      )}
    </nav>
  );
}
