import { MESSAGES } from "../../../shared/messages";
import { Spinner } from "./spinner";

/**
 * A page's placeholder while its code or data loads. It fills the screen so the footer starts below
 * the fold: the page arriving then moves nothing the reader can see (no layout shift).
 */
export function PageLoading() {
  return (
    <div className="flex min-h-screen justify-center py-8">
      <Spinner label={MESSAGES.loading} />
    </div>
  );
}
