import { MESSAGES } from "../../../shared/messages";
import { Spinner } from "./spinner";

/**
 * A page's placeholder while its code or data loads: a spinner and the spec's 'Loading...' (spec 2,
 * memory detail). It fills the screen so the footer starts below the fold: the page arriving then
 * moves nothing the reader can see (no layout shift).
 */
export function PageLoading() {
  return (
    <div className="flex min-h-screen items-start justify-center gap-2 py-8 text-sm text-slate-600">
      <Spinner label={MESSAGES.loading} />
      <span aria-hidden="true">{MESSAGES.loading}</span>
    </div>
  );
}
