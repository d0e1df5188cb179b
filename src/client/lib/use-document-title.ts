import { useEffect } from "react";
import { documentTitle } from "../../shared/messages";

/**
 * Sets the browser tab's title for the page on screen ('{page} - Voice Memory Journal'); with no
 * page name, the product's name alone (the home page).
 */
export function useDocumentTitle(page?: string): void {
  useEffect(() => {
    document.title = documentTitle(page);
  }, [page]);
}
